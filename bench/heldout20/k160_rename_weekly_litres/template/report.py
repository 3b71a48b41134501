from garden import BEDS
from planner import refills, thirstiest


def main():
    total = 0
    for bed in BEDS:
        litres = bed.water_needed()
        total += litres
        print(f"{bed.name} ({bed.crop}): water needed {litres} L a week")
    print(f"Total water needed: {total:.1f} L a week")
    print(f"Thirstiest bed: {thirstiest(BEDS).name}")
    print(f"Trips with a 10 L can: {refills(BEDS)}")


if __name__ == "__main__":
    main()
