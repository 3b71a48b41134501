open('output.txt', 'w').write('generated 42\n')
