"""The accelerometer drivers of today's Linux phones, as umockdev fixtures and kernel-model settings.

One `Driver` per driver kind of issue 28's table, each read in the kernel source (the `sources` of each
entry name the file and function): the device's `name`, how it names its trigger, whether it has a
buffer and of which kind, whether its read_raw refuses raw reads while buffered, how long a raw read
sleeps, the rate it starts at, which rates it takes and whether it takes them while buffered. The
contract for the harness:

    KINDS                                  the kinds, in the issue's order
    DRIVERS[kind] -> Driver                what the driver does
    fixture_text(kind, iio_sensor_proxy_type=None) -> str
                                           Tests/IIOSensorsTests/Fixtures/fake-accel.umockdev turned
                                           into that driver's device (umockdev's description format)
    udev_proxy_type(kind) -> str           the IIO_SENSOR_PROXY_TYPE that iio-sensor-proxy's udev rule
                                           (80-iio-sensor-proxy.rules) gives the device
    model_env(kind) -> dict                the environment for Tests/IIOExclusivity/iio-exclusivity.c

Every kind keeps the fixture's sysfs path (SYSPATH), node (NODE) and scan layout (x, y, z as le:s16 at
indexes 0-2 and the timestamp as le:s64 at 3: 16 bytes a scan), so one feeder serves them all; the
drivers' other channels (gyroscope, temperature) are left out, as iio-sensor-proxy enables every
scan element it finds and would change the scan. Trigger names use the fixture's device number, 0.
"""

import os
import re
from dataclasses import dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
FIXTURE = os.path.join(ROOT, "Tests", "IIOSensorsTests", "Fixtures", "fake-accel.umockdev")
SYSPATH = "/sys/devices/platform/fake-accel.0/iio:device0"
NODE = "/dev/iio:device0"
DEVICE_NUMBER = 0

TRIGGERED = "triggered"  # INDIO_BUFFER_TRIGGERED only: enabling needs a trigger
FIFO = "fifo"  # INDIO_BUFFER_SOFTWARE (a kfifo the driver fills from its hardware FIFO): no trigger at all
TRIGGERED_OR_FIFO = "triggered or fifo"  # both: with a trigger set it is triggered, else the FIFO


@dataclass(frozen=True)
class Driver:
    """What one IIO accelerometer driver shows in sysfs and does, as the model needs it."""

    kind: str
    phones: str
    name: str  # the device's `name` attribute
    trigger: str | None  # its data-ready trigger's name, None when it registers none
    trigger_selected: bool  # probe sets indio_dev->trig, so current_trigger starts with it
    buffer: str | None  # TRIGGERED, FIFO, TRIGGERED_OR_FIFO, or None (no buffer/, no scan_elements/)
    claims_direct_mode: bool  # read_raw refuses in_accel_*_raw with EBUSY while the buffer is enabled
    raw_read_periods: float  # sample periods a raw read sleeps (power-up), at the current rate
    rate_attribute: str  # sampling_frequency or in_accel_sampling_frequency
    rate: str  # its value at probe, as the driver prints it
    available_attribute: str
    available: str
    rate_listed_only: bool = True  # a rate write the *_available list lacks fails with EINVAL
    rate_write_claims_direct_mode: bool = False  # a rate write fails with EBUSY while buffered
    other_triggers: tuple = ()  # further triggers the driver registers (their names)
    sources: tuple = field(default=(), compare=False)

    @property
    def starting_rate(self):
        """The rate at probe, in Hz."""
        return float(self.rate)

    @property
    def needs_trigger(self):
        """Whether buffer/enable=1 fails (EINVAL) while current_trigger is empty."""
        return self.buffer == TRIGGERED


def _dev(name):
    return "%s-dev%d" % (name, DEVICE_NUMBER)


DRIVERS = {d.kind: d for d in [
    Driver(
        kind="inv_mpu6050", phones="PinePhone, PinePhone Pro, Xiaomi Redmi 2 (MPU-6050/6500/6880)",
        name="mpu6050", trigger=_dev("mpu6050"), trigger_selected=True, buffer=TRIGGERED,
        claims_direct_mode=True, raw_read_periods=0,
        rate_attribute="sampling_frequency", rate="50",
        available_attribute="sampling_frequency_available", available="10 20 50 100 200 500",
        rate_listed_only=False,
        sources=(
            "drivers/iio/imu/inv_mpu6050/inv_mpu_trigger.c, inv_mpu6050_probe_trigger(): "
            "devm_iio_trigger_alloc(..., \"%s-dev%d\", indio_dev->name, ...), then indio_dev->trig = it",
            "inv_mpu_core.c, inv_mpu6050_read_raw(): iio_device_claim_direct_mode() for IIO_CHAN_INFO_RAW",
            "inv_mpu_core.c, inv_mpu6050_read_channel_data(): sleeps one period only when the accelerometer "
            "engine is off (runtime suspend, 2 s after the last use), so polling keeps it on: 0 periods",
            "inv_mpu_core.c, chip_config_6050: .divider = INV_MPU6050_FIFO_RATE_TO_DIVIDER(50); "
            "IIO_DEV_ATTR_SAMP_FREQ (inv_fifo_rate_show: \"%u\"); "
            "IIO_CONST_ATTR_SAMP_FREQ_AVAIL(\"10 20 50 100 200 500\")",
            "inv_mpu6050_fifo_rate_store(): any integer from 4 to 1000 Hz (rounded to a divider), no claim",
        )),
    Driver(
        kind="bmc150-accel", phones="Samsung Galaxy A3/A5 2015 (BMC150)",
        name="bmc150_accel", trigger=_dev("bmc150_accel"), trigger_selected=False, buffer=TRIGGERED_OR_FIFO,
        claims_direct_mode=True, raw_read_periods=0,
        rate_attribute="in_accel_sampling_frequency", rate="125.000000",
        available_attribute="sampling_frequency_available",
        available="15.620000 31.260000 62.50000 125 250 500 1000 2000",
        other_triggers=("bmc150_accel-any-motion-dev%d" % DEVICE_NUMBER,),
        sources=(
            "drivers/iio/accel/bmc150-accel-core.c, bmc150_accel_triggers[]: \"%s-dev%d\" (data ready) and "
            "\"%s-any-motion-dev%d\", registered by bmc150_accel_triggers_setup(); indio_dev->trig is not set",
            "bmc150_accel_read_raw(): IIO_ACCEL raw reads return -EBUSY if iio_buffer_enabled()",
            "bmc150_accel_get_axis(): runtime resume only (sleeps when suspended, 2 s after use): 0 periods",
            "bmc150_accel_chip_init(): bmc150_accel_set_bw(data, BMC150_ACCEL_DEF_BW = 125, 0); SAMP_FREQ "
            "shared by type (in_accel_sampling_frequency, IIO_VAL_INT_PLUS_MICRO); "
            "IIO_CONST_ATTR_SAMP_FREQ_AVAIL(\"15.620000 31.260000 62.50000 125 250 500 1000 2000\")",
            "bmc150_accel_core_probe(): INDIO_BUFFER_SOFTWARE (hardware FIFO) as well when the bus reads "
            "blocks, so the buffer enables without a trigger",
        )),
    Driver(
        kind="kxcjk-1013", phones="Alcatel Idol 3 (KXTJ2-1009)",
        name="kxtj21009", trigger=_dev("kxtj21009"), trigger_selected=True, buffer=TRIGGERED,
        claims_direct_mode=True, raw_read_periods=0,
        rate_attribute="in_accel_sampling_frequency", rate="50.000000",
        available_attribute="in_accel_sampling_frequency_available",
        available="0.781000 1.563000 3.125000 6.250000 12.500000 25 50 100 200 400 800 1600",
        other_triggers=("kxtj21009-any-motion-dev%d" % DEVICE_NUMBER,),
        sources=(
            "drivers/iio/accel/kxcjk-1013.c, kxcjk1013_probe(): triggers \"%s-dev%d\" and "
            "\"%s-any-motion-dev%d\"; indio_dev->trig = data->dready_trig; iio_triggered_buffer_setup()",
            "kxcjk1013_read_raw(): if (iio_buffer_enabled(indio_dev)) ret = -EBUSY",
            "kxcjk1013_chip_init(): data->odr_bits read from DATA_CTRL, whose reset value is 50 Hz; "
            "SAMP_FREQ shared by type; in_accel_sampling_frequency_available (kxcjk1013_samp_freq_avail)",
        )),
    Driver(
        kind="st_lsm6dsx", phones="Samsung Galaxy S4 Mini VE (LSM6DS3)",
        name="lsm6ds3_accel", trigger=None, trigger_selected=False, buffer=FIFO,
        claims_direct_mode=True, raw_read_periods=3, rate_write_claims_direct_mode=True,
        rate_attribute="sampling_frequency", rate="12.500000",
        available_attribute="sampling_frequency_available",
        available="12.500 26.000 52.000 104.000 208.000 416.000",
        sources=(
            "drivers/iio/imu/st_lsm6dsx/st_lsm6dsx_core.c, st_lsm6dsx_alloc_iiodev(): name \"%s_accel\", "
            "sensor->odr = odr_table[id].odr_avl[0] (12500 mHz on the LSM6DS3)",
            "st_lsm6dsx_probe(): st_lsm6dsx_fifo_setup() (a kfifo, INDIO_BUFFER_SOFTWARE) when hw->irq > 0; "
            "no trigger is registered, so no trigger/ directory (iio_device_register_trigger_consumer() "
            "only for INDIO_ALL_TRIGGERED_MODES)",
            "st_lsm6dsx_read_raw(): iio_device_claim_direct_mode(), then st_lsm6dsx_read_oneshot(): "
            "usleep_range(3 * delay, 4 * delay), delay one period",
            "st_lsm6dsx_sysfs_sampling_frequency_avail(): \"%d.%03d \" per rate",
            "st_lsm6dsx_write_raw(): iio_device_claim_direct_mode() first, so rate writes are EBUSY while "
            "buffered; st_lsm6dsx_check_odr() takes only listed rates",
        )),
    Driver(
        kind="st_lsm6dsx-no-buffer", phones="Librem 5 (LSM9DS1, no interrupt wired)",
        name="lsm9ds1_accel", trigger=None, trigger_selected=False, buffer=None,
        claims_direct_mode=True, raw_read_periods=3, rate_write_claims_direct_mode=True,
        rate_attribute="sampling_frequency", rate="10.000000",
        available_attribute="sampling_frequency_available",
        available="10.000 50.000 119.000 238.000 476.000 952.000",
        sources=(
            "st_lsm6dsx_core.c, st_lsm6dsx_probe(): no interrupt (hw->irq <= 0), no st_lsm6dsx_fifo_setup(): "
            "no buffer/ nor scan_elements/; the node stays (the event interface)",
            "LSM9DS1 settings: accelerometer odr_avl 10, 50, 119, 238, 476, 952 Hz; starts at 10 Hz",
            "st_lsm6dsx_read_oneshot(): 3 to 4 periods a raw read",
        )),
    Driver(
        kind="bmi160", phones="BQ Aquaris X5 (BMI160)",
        name="bmi160", trigger=_dev("bmi160"), trigger_selected=True, buffer=TRIGGERED,
        claims_direct_mode=False, raw_read_periods=0,
        rate_attribute="in_accel_sampling_frequency", rate="100.000000",
        available_attribute="in_accel_sampling_frequency_available",
        available="0.78125 1.5625 3.125 6.25 12.5 25 50 100 200 400 800 1600",
        sources=(
            "drivers/iio/imu/bmi160/bmi160_core.c, bmi160_probe_trigger(): \"%s-dev%d\", "
            "indio_dev->trig = it; devm_iio_triggered_buffer_setup() in bmi160_core_probe()",
            "bmi160_read_raw(): bmi160_get_data() reads the data register, no claim: raw reads while buffered",
            "bmi160_chip_init() leaves the rate at the chip's reset value, 100 Hz; SAMP_FREQ shared by type; "
            "IIO_CONST_ATTR(in_accel_sampling_frequency_available, ...)",
        )),
    Driver(
        kind="st_accel", phones="LIS3DH family (LIS3DH, LIS2DH12, LSM303AGR...), e.g. older Android phones",
        name="lis3dh", trigger="lis3dh-trigger", trigger_selected=True, buffer=TRIGGERED,
        claims_direct_mode=True, raw_read_periods=2,
        rate_attribute="sampling_frequency", rate="1",
        available_attribute="sampling_frequency_available", available="1 10 25 50 100 200 400 1600",
        sources=(
            "drivers/iio/common/st_sensors/st_sensors_trigger.c, st_sensors_allocate_trigger(): "
            "\"%s-trigger\", indio_dev->trig = it",
            "st_sensors_core.c, st_sensors_read_info_raw(): iio_device_claim_direct_mode(), enable, "
            "msleep((bootime * 1000) / odr), read one axis, disable",
            "drivers/iio/accel/st_accel_core.c: LIS3DH odr_avl 1, 10, 25, 50, 100, 200, 400, 1600 Hz, bootime 2; "
            "st_accel_common_probe(): adata->odr = odr_avl[0].hz (1 Hz)",
        )),
]}

KINDS = list(DRIVERS)


def udev_proxy_type(kind):
    """IIO_SENSOR_PROXY_TYPE as 80-iio-sensor-proxy.rules sets it: iio-poll-accel for in_accel_{x,y,z}_raw,
    and iio-buffer-accel appended for scan_elements/in_accel_{x,y,z}_en."""
    return "iio-poll-accel iio-buffer-accel" if DRIVERS[kind].buffer else "iio-poll-accel"


def model_env(kind):
    """The settings of Tests/IIOExclusivity/iio-exclusivity.c for this driver."""
    d = DRIVERS[kind]
    return {
        "IIO_EXCLUSIVITY_CLAIMS_DIRECT_MODE": "1" if d.claims_direct_mode else "0",
        "IIO_EXCLUSIVITY_NEEDS_TRIGGER": "1" if d.needs_trigger else "0",
        "IIO_EXCLUSIVITY_RAW_READ_PERIODS": "%g" % d.raw_read_periods,
        "IIO_EXCLUSIVITY_CONFIG_RULES": "1",
        "IIO_EXCLUSIVITY_RATE_LISTED_ONLY": "1" if d.rate_listed_only else "0",
        "IIO_EXCLUSIVITY_RATE_CLAIMS_DIRECT_MODE": "1" if d.rate_write_claims_direct_mode else "0",
    }


def _trigger_block(index, name):
    return "P: /devices/platform/fake-accel.0/trigger%d\nE: SUBSYSTEM=iio\nA: name=%s\\n\n" % (index, name)


def fixture_text(kind, iio_sensor_proxy_type=None):
    """The shared fixture as this driver's device: its name, rate attributes, buffer and triggers.

    With `iio_sensor_proxy_type` (e.g. udev_proxy_type(kind)), the device carries that udev property, as
    iio-sensor-proxy's udev rule would give it (umockdev runs no rules)."""
    d = DRIVERS[kind]
    with open(FIXTURE) as f:
        device, _, _ = f.read().partition("\nP: ")  # the iio device; its trigger is rebuilt below
    lines = []
    for line in device.rstrip("\n").split("\n"):
        if line.startswith("A: name="):
            line = "A: name=%s\\n" % d.name
        elif re.match(r"A: (in_accel_)?sampling_frequency(_available)?=", line):
            continue
        elif line.startswith(("A: buffer/", "A: scan_elements/")) and not d.buffer:
            continue
        elif line.startswith("A: trigger/"):
            if not d.trigger:
                continue
            line = "A: trigger/current_trigger=%s\\n" % (d.trigger if d.trigger_selected else "")
        lines.append(line)
        if line == "E: SUBSYSTEM=iio" and iio_sensor_proxy_type:
            lines.append("E: IIO_SENSOR_PROXY_TYPE=%s" % iio_sensor_proxy_type)
    lines.append("A: %s=%s\\n" % (d.rate_attribute, d.rate))
    lines.append("A: %s=%s\\n" % (d.available_attribute, d.available))
    text = "\n".join(lines) + "\n"
    triggers = ([d.trigger] if d.trigger else []) + list(d.other_triggers)
    for index, name in enumerate(triggers):
        text += "\n" + _trigger_block(index, name)
    return text
