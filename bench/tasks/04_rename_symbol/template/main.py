from shop import compute_total

print(compute_total([40, 2]))
