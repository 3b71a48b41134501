def greeting(name):
    return "Helo, " + name


if __name__ == "__main__":
    print(greeting("world"))
