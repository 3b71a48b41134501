import sys


def greet_user(name):
    return f"Hello, {name}!"


if __name__ == "__main__":
    print(greet_user(sys.argv[1] if len(sys.argv) > 1 else "world"))
