"""A private D-Bus system bus for tests and benchmarks: iio-sensor-proxy and monitor-sensor on it,
never on the machine's own. Start `dbus-daemon --config-file=FILE --nofork` with
BUS_CONFIG % SOCKET_PATH written to FILE."""

BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=%s</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""
