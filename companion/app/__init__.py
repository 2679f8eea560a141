"""The Kivy touchscreen app: thin views over :class:`companion.session.Session`."""
