def recieve(msg):
    return msg
