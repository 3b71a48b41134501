/* System calls through another ABI than the native one, as an attacker in the sandbox would
   make them: i386 through `int 0x80` from a 64-bit process, and x32 (number | 0x40000000).
   Built non-PIE so the static buffers sit below 4 GiB, where i386 calls can point.
   Prints "start", then one line per call, then "DONE <what>" only if the attack got through. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char addr[128];
static unsigned int args[6];
static char params[256];

static long i386(long nr, long a, long b, long c) {
    long ret;
    __asm__ volatile("int $0x80" : "=a"(ret) : "a"(nr), "b"(a), "c"(b), "d"(c) : "memory");
    return (int)ret;
}

static long x32(long nr, long a, long b, long c) {
    long ret;
    __asm__ volatile("syscall"
                     : "=a"(ret)
                     : "a"(nr | 0x40000000L), "D"(a), "S"(b), "d"(c)
                     : "rcx", "r11", "memory");
    return ret;
}

static int unix_addr(const char *path) {
    memset(addr, 0, sizeof addr);
    addr[0] = 1; /* AF_UNIX, little-endian short */
    strncpy(addr + 2, path, sizeof addr - 3);
    return 2 + (int)strlen(path) + 1;
}

static int inet_addr_local(int port) {
    memset(addr, 0, sizeof addr);
    addr[0] = 2; /* AF_INET */
    addr[2] = (char)(port >> 8);
    addr[3] = (char)(port & 0xff);
    addr[4] = 127;
    addr[7] = 1;
    return 16;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IONBF, 0);
    const char *mode = argc > 1 ? argv[1] : "";
    const char *target = argc > 2 ? argv[2] : "";
    printf("start %s\n", mode);
    long fd, r;
    if (!strcmp(mode, "i386-unix")) { /* socket 359, connect 362, write 4 */
        fd = i386(359, 1, 1, 0);
        printf("socket=%ld\n", fd);
        if (fd < 0) return 1;
        r = i386(362, fd, (long)addr, unix_addr(target));
        printf("connect=%ld\n", r);
        if (r == 0 && i386(4, fd, (long)"escaped", 7) == 7) printf("DONE unix\n");
    } else if (!strcmp(mode, "i386-socketcall")) { /* socketcall 102: SYS_SOCKET 1, SYS_CONNECT 3 */
        args[0] = 1, args[1] = 1, args[2] = 0;
        fd = i386(102, 1, (long)args, 0);
        printf("socket=%ld\n", fd);
        if (fd < 0) return 1;
        args[0] = (unsigned)fd, args[1] = (unsigned)(long)addr, args[2] = (unsigned)unix_addr(target);
        r = i386(102, 3, (long)args, 0);
        printf("connect=%ld\n", r);
        if (r == 0 && i386(4, fd, (long)"escaped", 7) == 7) printf("DONE socketcall\n");
    } else if (!strcmp(mode, "i386-udp")) {
        fd = i386(359, 2, 2, 0);
        printf("socket=%ld\n", fd);
        if (fd < 0) return 1;
        r = i386(362, fd, (long)addr, inet_addr_local(atoi(target)));
        printf("connect=%ld\n", r);
        if (r == 0 && i386(4, fd, (long)"escaped", 7) == 7) printf("DONE udp\n");
    } else if (!strcmp(mode, "i386-ptrace")) { /* ptrace 26, PTRACE_TRACEME */
        r = i386(26, 0, 0, 0);
        printf("ptrace=%ld\n", r);
        if (r == 0) printf("DONE ptrace\n");
    } else if (!strcmp(mode, "i386-io_uring")) { /* io_uring_setup 425 */
        r = i386(425, 4, (long)params, 0);
        printf("io_uring=%ld\n", r);
        if (r >= 0) printf("DONE io_uring\n");
    } else if (!strcmp(mode, "i386-getpid")) { /* harmless: any foreign call is refused */
        r = i386(20, 0, 0, 0);
        printf("getpid=%ld\n", r);
        if (r > 0) printf("DONE getpid\n");
    } else if (!strcmp(mode, "x32-unix")) { /* x32 socket 41, connect 42 */
        fd = x32(41, 1, 1, 0);
        printf("socket=%ld\n", fd);
        if (fd < 0) return 1;
        r = x32(42, fd, (long)addr, unix_addr(target));
        printf("connect=%ld\n", r);
        if (r == 0 && write((int)fd, "escaped", 7) == 7) printf("DONE x32 unix\n");
    } else if (!strcmp(mode, "x32-ptrace")) { /* x32 ptrace 521 */
        r = x32(521, 0, 0, 0);
        printf("ptrace=%ld\n", r);
        if (r == 0) printf("DONE x32 ptrace\n");
    } else if (!strcmp(mode, "native")) {
        printf("native ok pid=%ld\n", (long)getpid());
    }
    return 0;
}
