import config

print(f"logging from {config.SENSOR} (port {config.PORT}, debug {config.DEBUG})")
