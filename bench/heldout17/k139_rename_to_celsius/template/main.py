from temps import describe, to_celsius

READINGS = [32, 98.6, 212, -40]

for reading in READINGS:
    print(describe(reading))
print("average:", to_celsius(sum(READINGS) / len(READINGS)))
