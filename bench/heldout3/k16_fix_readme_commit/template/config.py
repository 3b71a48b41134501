DEBUG = False
PORT = 8080
SENSOR = "/dev/ttyUSB0"
