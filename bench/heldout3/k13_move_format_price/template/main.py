from money import to_cents
from orders import format_price, receipt

LINES = [("tea", 2, to_cents("3.50")), ("cake", 1, to_cents("4.25"))]

print(receipt(LINES))
print("tea alone:", format_price(to_cents("3.50")))
