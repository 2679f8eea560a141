"""One module (a Screen class) and one ``.kv`` file per screen."""
