print("sending")
