"""The kiosk's screens: one class each, with the hooks on_show, handle, update, draw."""
