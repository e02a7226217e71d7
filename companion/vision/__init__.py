"""The camera: marked cards read by an ArUco detector and checked against the rules engine.

A pipeline of small pieces (see ``docs/camera.md``)::

    source (Camera.read -> grey frame) -> detect (markers) -> registry (marker -> card)
        -> CardTracker (seen in several frames, one new card at a time)
        -> inputs.post(Card(game, card)) -> the game screen matches it against the engine

Only ``sources`` touches a camera and only ``device`` touches the kiosk; everything else is
pure and tested on generated frames.  ``markers`` (the registry) imports nothing from OpenCV,
so the command line and the kiosk start without the ``vision`` extra installed.
"""
