"""Say what is wrong with a password: python3 password.py PASSWORD."""

import sys

COMMON = {"password1", "letmein", "qwerty123", "iloveyou", "sunshine"}


def main():
    password = sys.argv[1]
    found = 0
    if len(password) < 8:
        print("- shorter than 8 characters")
        found += 1
    if not any(c.isdigit() for c in password):
        print("- no digit")
        found += 1
    if not any(c.isupper() for c in password):
        print("- no capital letter")
        found += 1
    if password.lower() in COMMON:
        print("- too common")
        found += 1
    if found == 0:
        print("looks fine")


if __name__ == "__main__":
    main()
