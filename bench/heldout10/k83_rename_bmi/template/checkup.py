"""Print the body mass index of each person seen this morning."""

from health import calc_bmi, category

PATIENTS = [("Iris", 54.0, 1.68), ("Omar", 92.5, 1.80), ("Lena", 70.0, 1.75)]


def line(name, weight, height):
    bmi = calc_bmi(weight, height)
    return f"{name}: {bmi} ({category(bmi)})"


if __name__ == "__main__":
    for patient in PATIENTS:
        print(line(*patient))
