"""A playlist of songs with their lengths in seconds."""


class Playlist:
    def __init__(self, name):
        self.name = name
        self.songs = []

    def add_song(self, title, seconds):
        if seconds <= 0:
            raise ValueError(f"{title}: a song must last at least one second")
        self.songs.append((title, seconds))
        return len(self.songs)

    def total_seconds(self):
        return sum(seconds for _, seconds in self.songs)

    def length(self):
        minutes, seconds = divmod(self.total_seconds(), 60)
        return f"{minutes}:{seconds:02d}"
