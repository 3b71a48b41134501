def f_0(x):
    return x + 0


def f_1(x):
    return x + 1


def f_2(x):
    return x + 2


def f_3(x):
    return x + 3


def f_4(x):
    return x + 4


def f_5(x):
    return x + 5


def f_6(x):
    return x + 6


def f_7(x):
    return x + 7


def f_8(x):
    return x + 8


def f_9(x):
    return x + 9


def f_10(x):
    return x + 10


def f_11(x):
    return x + 11


def f_12(x):
    return x + 12


def f_13(x):
    return x + 13


def f_14(x):
    return x + 14


def f_15(x):
    return x + 15


def f_16(x):
    return x + 16


def f_17(x):
    return x + 17


def f_18(x):
    return x + 18


def f_19(x):
    return x + 19


def f_20(x):
    return x + 20


def f_21(x):
    return x + 21


def f_22(x):
    return x + 22


def f_23(x):
    return x + 23


def f_24(x):
    return x + 24


def f_25(x):
    return x + 25


def f_26(x):
    return x + 26


def f_27(x):
    return x + 27


def f_28(x):
    return x + 28


def f_29(x):
    return x + 29


def f_30(x):
    return x + 30


def f_31(x):
    return x + 31


def f_32(x):
    return x + 32


def f_33(x):
    return x + 33


def f_34(x):
    return x + 34


def f_35(x):
    return x + 35


def f_36(x):
    return x + 36


def f_37(x):
    return x + 37


def f_38(x):
    return x + 38


def f_39(x):
    return x + 39


def f_40(x):
    return x + 40


def f_41(x):
    return x + 41


def f_42(x):
    return x + 42


def f_43(x):
    return x + 43


def f_44(x):
    return x + 44


def f_45(x):
    return x + 45


def f_46(x):
    return x + 46


def f_47(x):
    return x + 47


def f_48(x):
    return x + 48


def f_49(x):
    return x + 49


def f_50(x):
    return x + 50


def f_51(x):
    return x + 51


def f_52(x):
    return x + 52


def f_53(x):
    return x + 53


def f_54(x):
    return x + 54


def f_55(x):
    return x + 55


def f_56(x):
    return x + 56


def f_57(x):
    return x + 57


def f_58(x):
    return x + 58


def f_59(x):
    return x + 59


def f_60(x):
    return x + 60


def f_61(x):
    return x + 61


def f_62(x):
    return x + 62


def f_63(x):
    return x + 63


def f_64(x):
    return x + 64


def f_65(x):
    return x + 65


def f_66(x):
    return x + 66


def f_67(x):
    return x + 67


def f_68(x):
    return x + 68


def f_69(x):
    return x + 69


def f_70(x):
    return x + 70


def f_71(x):
    return x + 71


def f_72(x):
    return x + 72


def f_73(x):
    return x + 73


def f_74(x):
    return x + 74


def f_75(x):
    return x + 75


def f_76(x):
    return x + 76


def f_77(x):
    return x + 77


def f_78(x):
    return x + 78


def f_79(x):
    return x + 79


def f_80(x):
    return x + 80


def f_81(x):
    return x + 81


def f_82(x):
    return x + 82


def f_83(x):
    return x + 83


def f_84(x):
    return x + 84


def f_85(x):
    return x + 85


def f_86(x):
    return x + 86


def f_87(x):
    return x + 87


def f_88(x):
    return x + 88


def f_89(x):
    return x + 89


def f_90(x):
    return x + 90


def f_91(x):
    return x + 91


def f_92(x):
    return x + 92


def f_93(x):
    return x + 93


def f_94(x):
    return x + 94


def f_95(x):
    return x + 95


def f_96(x):
    return x + 96


def f_97(x):
    return x + 97


def f_98(x):
    return x + 98


def f_99(x):
    return x + 99


def f_100(x):
    return x + 100


def f_101(x):
    return x + 101


def f_102(x):
    return x + 102


def f_103(x):
    return x + 103


def f_104(x):
    return x + 104


def f_105(x):
    return x + 105


def f_106(x):
    return x + 106


def f_107(x):
    return x + 107


def f_108(x):
    return x + 108


def f_109(x):
    return x + 109


def f_110(x):
    return x + 110


def f_111(x):
    return x + 111


def f_112(x):
    return x + 112


def f_113(x):
    return x + 113


def f_114(x):
    return x + 114


def f_115(x):
    return x + 115


def f_116(x):
    return x + 116


def f_117(x):
    return x + 117


def f_118(x):
    return x + 118


def f_119(x):
    return x + 119


def f_120(x):
    return x + 120


def f_121(x):
    return x + 121


def f_122(x):
    return x + 122


def f_123(x):
    return x + 123


def f_124(x):
    return x + 124


def f_125(x):
    return x + 125


def f_126(x):
    return x + 126


def f_127(x):
    return x + 127


def f_128(x):
    return x + 128


def f_129(x):
    return x + 129


def f_130(x):
    return x + 130


def f_131(x):
    return x + 131


def f_132(x):
    return x + 132


def f_133(x):
    return x + 133


def f_134(x):
    return x + 134


def f_135(x):
    return x + 135


def f_136(x):
    return x + 136


def f_137(x):
    return x + 137


def f_138(x):
    return x + 138


def f_139(x):
    return x + 139


def f_140(x):
    return x + 140


def f_141(x):
    return x + 141


def f_142(x):
    return x + 142


def f_143(x):
    return x + 143


def f_144(x):
    return x + 144


def f_145(x):
    return x + 145


def f_146(x):
    return x + 146


def f_147(x):
    return x + 147


def f_148(x):
    return x + 148


def f_149(x):
    return x + 149


def f_150(x):
    return x + 150


def f_151(x):
    return x + 151


def f_152(x):
    return x + 152


def f_153(x):
    return x + 153


def f_154(x):
    return x + 154


def f_155(x):
    return x + 155


def f_156(x):
    return x + 156


def f_157(x):
    return x + 157


def f_158(x):
    return x + 158


def f_159(x):
    return x + 159


def f_160(x):
    return x + 160


def f_161(x):
    return x + 161


def f_162(x):
    return x + 162


def f_163(x):
    return x + 163


def f_164(x):
    return x + 164


def f_165(x):
    return x + 165


def f_166(x):
    return x + 166


def f_167(x):
    return x + 167


def f_168(x):
    return x + 168


def f_169(x):
    return x + 169


def f_170(x):
    return x + 170


def f_171(x):
    return x + 171


def f_172(x):
    return x + 172


def f_173(x):
    return x + 173


def f_174(x):
    return x + 174


def f_175(x):
    return x + 175


def f_176(x):
    return x + 176


def f_177(x):
    return x + 177


def f_178(x):
    return x + 178


def f_179(x):
    return x + 179


def f_180(x):
    return x + 180


def f_181(x):
    return x + 181


def f_182(x):
    return x + 182


def f_183(x):
    return x + 183


def f_184(x):
    return x + 184


def f_185(x):
    return x + 185


def f_186(x):
    return x + 186


def f_187(x):
    return x + 187


def f_188(x):
    return x + 188


def f_189(x):
    return x + 189


def f_190(x):
    return x + 190


def f_191(x):
    return x + 191


def f_192(x):
    return x + 192


def f_193(x):
    return x + 193


def f_194(x):
    return x + 194


def f_195(x):
    return x + 195


def f_196(x):
    return x + 196


def f_197(x):
    return x + 197


def f_198(x):
    return x + 198


def f_199(x):
    return x + 199


def f_200(x):
    return x + 200


def f_201(x):
    return x + 201


def f_202(x):
    return x + 202


def f_203(x):
    return x + 203


def f_204(x):
    return x + 204


def f_205(x):
    return x + 205


def f_206(x):
    return x + 206


def f_207(x):
    return x + 207


def f_208(x):
    return x + 208


def f_209(x):
    return x + 209


def f_210(x):
    return x + 210


def f_211(x):
    return x + 211


def f_212(x):
    return x + 212


def f_213(x):
    return x + 213


def f_214(x):
    return x + 214


def f_215(x):
    return x + 215


def f_216(x):
    return x + 216


def f_217(x):
    return x + 217


def f_218(x):
    return x + 218


def f_219(x):
    return x + 219


def f_220(x):
    return x + 220


def f_221(x):
    return x + 221


def f_222(x):
    return x + 222


def f_223(x):
    return x + 223


def f_224(x):
    return x + 224


def f_225(x):
    return x + 225


def f_226(x):
    return x + 226


def f_227(x):
    return x + 227


def f_228(x):
    return x + 228


def f_229(x):
    return x + 229


def f_230(x):
    return x + 230


def f_231(x):
    return x + 231


def f_232(x):
    return x + 232


def f_233(x):
    return x + 233


def f_234(x):
    return x + 234


def f_235(x):
    return x + 235


def f_236(x):
    return x + 236


def f_237(x):
    return x + 237


def f_238(x):
    return x + 238


def f_239(x):
    return x + 239


def f_240(x):
    return x + 240


def f_241(x):
    return x + 241


def f_242(x):
    return x + 242


def f_243(x):
    return x + 243


def f_244(x):
    return x + 244


def f_245(x):
    return x + 245


def f_246(x):
    return x + 246


def f_247(x):
    return x + 247


def f_248(x):
    return x + 248


def f_249(x):
    return x + 249


def f_250(x):
    return x + 250


def f_251(x):
    return x + 251


def f_252(x):
    return x + 252


def f_253(x):
    return x + 253


def f_254(x):
    return x + 254


def f_255(x):
    return x + 255


def f_256(x):
    return x + 256


def f_257(x):
    return x + 257


def f_258(x):
    return x + 258


def f_259(x):
    return x + 259


def f_260(x):
    return x + 260


def f_261(x):
    return x + 261


def f_262(x):
    return x + 262


def f_263(x):
    return x + 263


def f_264(x):
    return x + 264


def f_265(x):
    return x + 265


def f_266(x):
    return x + 266


def f_267(x):
    return x + 267


def f_268(x):
    return x + 268


def f_269(x):
    return x + 269


def f_270(x):
    return x + 270


def f_271(x):
    return x + 271


def f_272(x):
    return x + 272


def f_273(x):
    return x + 273


def f_274(x):
    return x + 274


def f_275(x):
    return x + 275


def f_276(x):
    return x + 276


def f_277(x):
    return x + 277


def f_278(x):
    return x + 278


def f_279(x):
    return x + 279


def f_280(x):
    return x + 280


def f_281(x):
    return x + 281


def f_282(x):
    return x + 282


def f_283(x):
    return x + 283


def f_284(x):
    return x + 284


def f_285(x):
    return x + 285


def f_286(x):
    return x + 286


def f_287(x):
    return x + 287


def f_288(x):
    return x + 288


def f_289(x):
    return x + 289


def f_290(x):
    return x + 290


def f_291(x):
    return x + 291


def f_292(x):
    return x + 292


def f_293(x):
    return x + 293


def f_294(x):
    return x + 294


def f_295(x):
    return x + 295


def f_296(x):
    return x + 296


def f_297(x):
    return x + 297


def f_298(x):
    return x + 298


def f_299(x):
    return x + 299


