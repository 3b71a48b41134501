def to_celsius(fahrenheit):
    return round((fahrenheit - 32) * 5 / 9, 1)


def describe(fahrenheit):
    celsius = to_celsius(fahrenheit)
    return f"{fahrenheit}F is {celsius}C"
