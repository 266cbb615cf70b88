"""The steps of a scripted end-to-end flow (Tests/package/*_flow.py): each step said as it starts,
and the run ended with the step that failed, named."""


class Flow:
    """A flow named `name` ("demo flow"), whose messages all begin with that name."""

    def __init__(self, name):
        self.name = name

    def say(self, what):
        print("%s: %s" % (self.name, what), flush=True)

    def check(self, condition, what):
        """Ends the run (SystemExit, non-zero) saying `what` when `condition` is false."""
        if not condition:
            raise SystemExit("%s: %s" % (self.name, what))
