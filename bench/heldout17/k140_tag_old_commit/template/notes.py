NOTES = []


def add(text):
    NOTES.append(text)
