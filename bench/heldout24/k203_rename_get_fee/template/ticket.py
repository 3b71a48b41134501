"""Prints the charge for each stay in a file of `plate minutes` lines: python3 ticket.py stays.txt"""

import sys

from parking import as_euros, get_fee


def main(path):
    total = 0
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            plate, minutes = line.split()
            fee = get_fee(int(minutes))
            total += fee
            print(f"{plate:<10}{minutes:>5} min{as_euros(fee):>8}")
    print(f"{'total':<19}{as_euros(total):>8}")


if __name__ == "__main__":
    main(sys.argv[1])
