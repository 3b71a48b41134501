def double(x):
    return x * 2


def old_helper():
    return 'unused'
