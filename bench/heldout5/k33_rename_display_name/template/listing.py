"""Print the address book: python3 listing.py"""

from people import PEOPLE, get_full_name


def line(person):
    return f"{get_full_name(person):<16}{person['city']}"


def main():
    names = sorted(PEOPLE, key=get_full_name)
    for person in names:
        print(line(person))


if __name__ == "__main__":
    main()
