"""Write tests/data/long_sessions_heldout4.json: hand-written developer chat for a fourth held-out draw.

The sessions below were written by hand (helper r38h) for issue 38's fourth held-out sample of FACT rows and
issue 39's held-out recall set: a firmware engineer at a small Dutch company making connected beehive scales,
January to August 2025 (a FreeRTOS to Zephyr port, LoRaWAN, power work, CI moved off Jenkins, an embedded
Rust evening course, a new manager, a move from Utrecht to Eindhoven, a niece, a sprained wrist, a holiday).
This script only assembles them into LongMemEval's format: each question's haystack is its answering
sessions and four others, chosen so that every session is in some haystack.

    python benchmarks/make_long_sessions_heldout4.py tests/data/long_sessions_heldout4.json
"""

import json
import sys
from datetime import datetime
from pathlib import Path

# A session is (id, date, turns); a turn is (role, text), U the user and A the assistant.
SESSIONS: list[tuple[str, str, list[tuple[str, str]]]] = [
    ("fw-01", "2025/01/20 09:12", [
        ("U", """Morning. Starting a big one today: we're porting the hive scale firmware from FreeRTOS on the STM32L476 to Zephyr. We picked Zephyr 3.7 LTS because the new board uses the STM32WLE5 (radio on the same die) and Zephyr already ships a LoRaWAN subsystem on top of LoRaMac-node, so we stop maintaining our own glue. Can you help me set up the west workspace so the app lives in its own repo?"""),
        ("A", """Sure. The usual pattern for this is a T2 "manifest repository" layout: your application repo holds `west.yml`, and Zephyr plus the modules you need are pulled in as projects.

1. Create the app repo with a manifest at the root:

```yaml
manifest:
  remotes:
    - name: zephyrproject-rtos
      url-base: https://github.com/zephyrproject-rtos
  projects:
    - name: zephyr
      remote: zephyrproject-rtos
      revision: v3.7.0
      import:
        name-allowlist:
          - cmsis
          - hal_stm32
          - loramac-node
  self:
    path: hive-fw
```

2. Initialise a workspace from it:

```
west init -l hive-fw
west update
west zephyr-export
pip install -r zephyr/scripts/requirements.txt
```

3. Build for the Nucleo-WL55JC first, since it is the closest upstream board to the WLE5:

```
west build -b nucleo_wl55jc hive-fw/app -p
```

The `name-allowlist` keeps `west update` from cloning every HAL, which saves a few GB and a lot of CI time."""),
        ("U", """ok did that. build fails though

```
-- Found BOARD.dts: /home/sanne/zp/zephyr/boards/st/nucleo_wl55jc/nucleo_wl55jc.dts
CMake Error at /home/sanne/zp/zephyr/cmake/modules/kconfig.cmake:396 (message):
  command failed with return code: 1
error: LORAWAN (defined at subsys/lorawan/Kconfig:6) is assigned in a configuration file, but is not directly defined in any Kconfig file
```"""),
        ("A", """That message usually means the symbol exists but its dependencies are not met, so Kconfig treats the assignment as dangling. `CONFIG_LORAWAN` depends on `LORA`, which needs the radio driver enabled through devicetree and the loramac-node module present.

Let me check the usual suspects:

- Is `loramac-node` in the allowlist? It is in the manifest above, but if you ran `west update` before adding it, run it again.
- Add `CONFIG_LORA=y` to `prj.conf` before `CONFIG_LORAWAN=y`.
- The nucleo_wl55jc board enables the `subghz` node already, so no overlay is needed for the radio.

After `west update` and the extra line, a pristine build should get past Kconfig."""),
        ("U", """yep it was the allowlist, I'd run update before editing it. builds now, 61 KB flash. thanks"""),
        ("A", """Good. 61 KB with the LoRaWAN stack is about what to expect on 3.7; the WLE5 has 256 KB so you have room for MCUboot and two slots later if you want them. Next useful step is probably the board definition for your own PCB, so you stop building for the Nucleo."""),
    ]),
    ("ci-01", "2025/01/28 14:40", [
        ("U", """Our Jenkins is dying again. For context it's a 2014 Mac mini under Pieter's desk that runs every firmware build and the hardware-in-the-loop tests. This morning:

```
[Pipeline] sh
+ make -C fw all BOARD=hivescale_v3
make: Entering directory '/Users/jenkins/workspace/hive-fw/fw'
arm-none-eabi-gcc: fatal error: cannot execute 'cc1': posix_spawnp: Resource temporarily unavailable
compilation terminated.
make: *** [build/main.o] Error 1
ERROR: script returned exit code 2
Finished: FAILURE
```

What does that even mean"""),
        ("A", """`posix_spawnp: Resource temporarily unavailable` is EAGAIN from the kernel: the process could not fork because a limit was hit, most often the per-user process limit (`kern.maxprocperuid` on macOS) or memory pressure. On an old Mac mini running Jenkins for a long time, the usual cause is leaked processes: orphaned `openocd` or serial monitors from aborted HIL jobs that never exit.

Things to check on the box:

```
ps -u jenkins | wc -l
sysctl kern.maxprocperuid
ps -u jenkins -o pid,etime,command | grep -E 'openocd|pyocd|miniterm'
```

If you see dozens of `openocd` processes with long elapsed times, kill them and add a `post { always { sh 'pkill -u jenkins openocd || true' } }` block so aborted jobs clean up."""),
        ("U", """71 openocd processes. lol. killed them and it builds again. Honestly I want to move us to GitHub Actions, the code is on GitHub anyway and nobody wants to babysit the mini"""),
        ("A", """That is a reasonable move. Building firmware on GitHub-hosted runners is easy; the HIL part is the only tricky piece, because it needs a machine physically wired to the boards. The common setup is a self-hosted runner on a small Linux box next to the rig, with a label like `hil`, and every other job on hosted runners.

A migration plan that keeps Jenkins as a fallback:

1. Port the build job to Actions first (hosted runners, cache the toolchain).
2. Set up the self-hosted runner and port one HIL test.
3. Run both systems in parallel for two weeks.
4. Switch branch protection to the Actions checks and turn Jenkins off.

Want me to draft the build workflow?"""),
        ("U", """not today, I'll come back to it. Pieter wants to see a plan first"""),
        ("A", """Makes sense. If it helps for the conversation with Pieter, the main arguments are: no hardware to maintain for builds, logs and artifacts next to the PRs, and the HIL box becomes a cheap replaceable Linux machine instead of a machine nobody else knows how to fix."""),
    ]),
    ("power-01", "2025/02/04 10:03", [
        ("U", """Quick note for context: the scale runs on two AA Energizer L91 lithium cells and the product target is 18 months of battery life in the field. First Zephyr build is in, and I just measured sleep current with the Nordic PPK2 in ammeter mode: 38 µA average between uplinks. The old FreeRTOS firmware was at around 6 µA. Where would you start?"""),
        ("A", """38 µA against 6 µA on the old firmware points to something staying on, not to the MCU failing to sleep deeply (that would typically show up as hundreds of µA or milliamps). Let me list the usual causes on a Zephyr port to an STM32WL:

- **Console UART left enabled.** With `CONFIG_SERIAL=y` and the console on, the UART clock and its RX pin can keep the device out of Stop 2 or add leakage.
- **PM not enabled.** Check `CONFIG_PM=y` and that the board's devicetree lists the `stop` power states; without them Zephyr idles in Sleep, not Stop.
- **Floating GPIOs.** Pins that were configured by the old firmware as analog to save power now default to whatever the bootloader or driver leaves.
- **External parts.** The load-cell amplifier, sensors and their pull-ups.

A quick bisect: build with `CONFIG_SERIAL=n CONFIG_CONSOLE=n` and measure again. If the figure drops a lot, it's the UART; if not, look at the amplifier."""),
        ("U", """with serial off: 31 µA. so some, not all"""),
        ("A", """So roughly 7 µA was the UART and about 25 µA is still extra. The next suspect is the HX711 or whatever powers it. Can you paste the pin configuration for the amplifier from your overlay, and tell me whether its supply is switched or always on?"""),
        ("U", """always on. its VDD is straight from the rail, the old firmware put it in power-down by holding PD_SCK high. I'll dig tomorrow, out of time"""),
        ("A", """That is a strong lead: if the Zephyr driver doesn't hold PD_SCK high during sleep, the HX711 sits in normal mode drawing around 1.5 mA... actually that would be far more than 25 µA, so it's more likely partly powered down or the DOUT line is floating. Measuring with the amplifier's VDD lifted would settle it. Good luck tomorrow."""),
    ]),
    ("lora-01", "2025/02/06 16:20", [
        ("U", """btw our uplink payload right now is Cayenne LPP, 11 bytes: weight, temperature, humidity, battery. we send every 30 min at SF9 on EU868 through the Things Network community server. is 11 bytes a problem for airtime?"""),
        ("A", """At SF9/125 kHz an 11-byte application payload becomes about 24 bytes on air with the LoRaWAN header and MIC, which is roughly 185 ms of airtime per uplink. At 48 uplinks a day that's close to 9 s per day per node.

The community network's fair-use policy allows 30 s of uplink airtime per node per day, so you're within it, but with margin for only a few retransmissions. If ADR pushes some nodes to SF11 or SF12 in the field, they'll exceed it. Shrinking the payload is the cheapest lever: Cayenne LPP spends a type byte and a channel byte on every field."""),
        ("U", """how small could it get"""),
        ("A", """With a fixed layout you know on both ends:

| field | range | bits |
|---|---|---|
| weight | 0-200 kg in 10 g steps | 15 |
| temperature | -20..60 °C in 0.1 steps | 10 |
| humidity | 0..100 % | 7 |
| battery | 2.0..3.6 V in 10 mV | 8 |

That's 40 bits, so 5 bytes, or 6-7 if you keep a version byte and a status byte for flags. Decoding would move to a payload formatter on the network server."""),
        ("U", """nice. parking it for now, first the port has to work"""),
        ("A", """Sensible. Keep the version byte in mind when you do it; it's what lets old and new firmware share the same formatter during the pilot."""),
    ]),
    ("life-01", "2025/02/10 20:15", [
        ("U", """Hi! Not code tonight. I have my yearly review with my manager Pieter next week and I need to write a self-review. I'm a firmware engineer at a small company in Utrecht that makes connected beehive scales (we're 14 people). Could you help me structure it?"""),
        ("A", """Happy to. A self-review that works well with a manager usually has four parts:

1. **What I delivered** - two or three concrete outcomes with numbers where you have them (battery life, build time, field failures).
2. **How I worked** - collaboration, things you unblocked for others, mentoring.
3. **What didn't go well** - one honest item and what you learned.
4. **What I want next year** - the scope you want, skills to grow, support you need from Pieter.

What were the big things of your last year?"""),
        ("U", """shipped v2 of the scale on freertos, cut field returns a lot, and now started the zephyr port. also I did most of the HIL rig"""),
        ("A", """That gives you a strong first section. Something like:

- Shipped hive scale v2 firmware (FreeRTOS); field returns dropped from X to Y per quarter.
- Built the hardware-in-the-loop test rig that now runs on every merge.
- Started the Zephyr port for the v3 board (STM32WLE5) and set up the west workspace.

Fill in X and Y if you have them: numbers are what managers carry into calibration meetings."""),
        ("U", """perfect, thank you!!"""),
        ("A", """You're welcome. Good luck with the review."""),
    ]),
    ("ci-02", "2025/02/11 11:05", [
        ("U", """Pieter said yes to GitHub Actions. Plan: builds on hosted runners, and a self-hosted runner on a Raspberry Pi 5 bolted to the HIL rig (it has the J-Link, the PPK2 and two test boards on USB). Can you write the workflow?"""),
        ("A", """Here's a starting point with two jobs: a hosted build that uploads the binary, and a HIL job on the Pi that downloads it.

```yaml
name: firmware
on: [push, pull_request]
jobs:
  build:
    runs-on: ubuntu-24.04
    container: ghcr.io/zephyrproject-rtos/ci:v0.27.4
    steps:
      - uses: actions/checkout@v4
        with: { path: hive-fw }
      - run: west init -l hive-fw && west update --narrow -o=--depth=1
      - run: west build -b hivescale_v3 hive-fw/app -p
      - uses: actions/upload-artifact@v4
        with: { name: fw, path: build/zephyr/zephyr.hex }
  hil:
    needs: build
    runs-on: [self-hosted, linux, ARM64, hil]
    steps:
      - uses: actions/checkout@v4
      - uses: actions/download-artifact@v4
        with: { name: fw }
      - run: pytest -q tests/hil --fw zephyr.hex
```

On the Pi, register the runner with `./config.sh --labels hil` and install it as a service with `sudo ./svc.sh install`."""),
        ("U", """the zephyr ci image is amd64 only right? the pi is arm64"""),
        ("A", """Right, that's why only the `build` job uses the container; the `hil` job runs directly on the Pi and only needs Python, pytest and the J-Link tools, which exist for arm64 (`JLink_Linux_arm64.deb`). Keep the Pi job free of compilation and it stays fast."""),
        ("U", """ok do it, I'll open the PR"""),
        ("A", """One more thing before you merge: limit the `hil` job to pushes on `main` and PRs from the same repo (`if: github.event.pull_request.head.repo.full_name == github.repository`), otherwise a fork PR could run code on a machine in your office."""),
    ]),
    ("fw-02", "2025/02/17 13:30", [
        ("U", """writing the devicetree overlay for the HX711 on our own board, the build says

```
devicetree error: /home/sanne/zp/hive-fw/boards/hivescale_v3.overlay:14 (column 2): parse error: expected ';' or ','
```

line 14 is `dout-gpios = <&gpiob 3 GPIO_ACTIVE_HIGH>`"""),
        ("A", """The line itself looks fine, so the parser is most likely complaining about the line above it: a missing `;` at the end of line 13 shows up as an error at the start of the next property. Can you paste lines 10-16?"""),
        ("U", """```
&hx711 {
	status = "okay";
	sck-gpios = <&gpioa 9 GPIO_ACTIVE_HIGH>
	dout-gpios = <&gpiob 3 GPIO_ACTIVE_HIGH>;
	rate-gpios = <&gpioa 10 GPIO_ACTIVE_HIGH>;
};
```"""),
        ("A", """There it is: `sck-gpios` on line 13 has no semicolon. Add it and the overlay parses:

```
	sck-gpios = <&gpioa 9 GPIO_ACTIVE_HIGH>;
```

While you're there, consider `GPIO_PULL_UP` on `dout-gpios`: the HX711 drives DOUT only when it is awake, so in power-down the pin floats unless something pulls it."""),
        ("U", """fixed, builds. will try the pull-up when I'm back on the power stuff"""),
        ("A", """Sounds good. The floating DOUT might well be part of the extra sleep current you measured."""),
    ]),
    ("power-02", "2025/02/24 09:48", [
        ("U", """Back on sleep current. Now at 31 µA with UART off. Here's what I found, PPK2 export summary:

```
window        avg_uA   max_mA
sleep_1       30.8     0.04
uplink        --       42.1
sleep_2       31.2     0.04
```

HX711 PD_SCK is high during sleep (checked with the scope). DOUT pin on PB3 is configured as plain input, no pull."""),
        ("A", """Then the amplifier is in power-down as intended and the remaining culprit is most likely that floating DOUT input on PB3. When the HX711 is powered down its DOUT output is high-impedance, so PB3 floats somewhere mid-rail, and a CMOS input sitting near mid-rail draws shoot-through current in its input buffer; on STM32 parts that is typically tens of µA. That fits your ~25 µA gap.

Two fixes, either works:

1. Add `GPIO_PULL_UP` to `dout-gpios` in the overlay (the HX711 holds DOUT high when idle anyway, so the pull-up costs nothing).
2. Before entering sleep, reconfigure PB3 as analog (`GPIO_DISCONNECTED` in Zephyr), which disables the input buffer.

Option 1 is simpler and safe with the driver."""),
        ("U", """pull-up added. 4.1 µA!!"""),
        ("A", """That's better than the old FreeRTOS build's 6 µA. Worth writing down which two changes got you there (console off in production, DOUT pull-up), because they're easy to lose in the next refactor. A HIL test that fails above, say, 8 µA would guard it."""),
        ("U", """good idea, adding a PPK2 check to the HIL suite"""),
        ("A", """With the `ppk2-api` Python package you can put the PPK2 in ammeter mode, sample for 60 s after the first uplink, and assert on the mean of the lowest 90% of samples, so an uplink inside the window doesn't fail the test."""),
    ]),
    ("lora-02", "2025/03/03 15:12", [
        ("U", """Join problem. After reflashing a board it never joins again. Log:

```
[00:00:01.204,000] <inf> lorawan: Joining network over OTAA
[00:00:07.511,000] <wrn> lorawan: MlmeConfirm failed : Rx 2 timeout
[00:00:07.511,000] <err> hive: join failed: -116
```

And the TTN console shows `DevNonce has already been used` for the device. Fresh boards join fine the first time"""),
        ("A", """That matches the description exactly: LoRaWAN 1.0.4 requires the device to use an increasing DevNonce, and the network server rejects any value it has seen. Zephyr's LoRaWAN subsystem keeps the DevNonce in RAM unless you give it persistent storage, so every reflash or reset starts again from a value the server has already used.

Enable the subsystem's settings storage:

```
CONFIG_LORAWAN_NVM_SETTINGS=y
CONFIG_SETTINGS=y
CONFIG_NVS=y
CONFIG_FLASH=y
CONFIG_FLASH_MAP=y
```

and make sure your board has a `storage_partition` in flash. For the boards that already burned nonces, you can reset the DevNonce counter for the device in the console (Device settings - Join settings - "Reset used DevNonces") once."""),
        ("U", """ah that makes sense. we don't have a storage partition yet"""),
        ("A", """Then add one in the board's devicetree; 8 KB (four 2 KB pages on the WL) is enough for NVS with the LoRaWAN keys and counters. I can help lay out the partitions if you want to leave room for MCUboot too."""),
        ("U", """yes please but next time, need to run"""),
        ("A", """Sure. Bring the current flash usage (`west build -t rom_report` top lines) and I'll propose a layout."""),
    ]),
    ("rust-01", "2025/03/05 21:40", [
        ("U", """Started an evening course yesterday (Tuesday): "Embedded Rust with Embassy", online, 8 weeks, one evening a week. For the course project I'm building a soil moisture sensor for my balcony plants on a Raspberry Pi Pico W (RP2040). Calling it "sapling". How do I get blinky going with embassy-rp?"""),
        ("A", """Nice project for a first Embassy app. The minimal setup:

```
cargo generate --git https://github.com/embassy-rs/embassy --name sapling
rustup target add thumbv6m-none-eabi
cargo install probe-rs-tools
```

If `cargo generate` feels heavy, start from `examples/rp` in the Embassy repo and copy `Cargo.toml`, `memory.x`, `build.rs` and `.cargo/config.toml`. Note that on the Pico W the onboard LED is wired to the CYW43 wifi chip, not to an RP2040 GPIO, so the simplest blinky uses an external LED on GP15:

```rust
#[embassy_executor::main]
async fn main(_spawner: Spawner) {
    let p = embassy_rp::init(Default::default());
    let mut led = Output::new(p.PIN_15, Level::Low);
    loop {
        led.toggle();
        Timer::after_millis(500).await;
    }
}
```

Flash with `cargo run --release` if the runner in `.cargo/config.toml` is `probe-rs run --chip RP2040`."""),
        ("U", """i don't have a debug probe for the pico, only usb"""),
        ("A", """Then use `elf2uf2-rs` as the runner: hold BOOTSEL while plugging in, and `cargo run` copies the UF2 to the mounted drive. Set `runner = "elf2uf2-rs -d"` in `.cargo/config.toml`. A second Pico flashed with the debugprobe firmware makes a very cheap probe later, which you'll want for defmt logs."""),
        ("U", """blinking! ok this is fun"""),
        ("A", """Enjoy it. Next week's natural step is reading the capacitive moisture sensor on an ADC pin, which is a good first async peripheral."""),
    ]),
    ("fw-03", "2025/03/10 10:22", [
        ("U", """Flash layout time. rom_report says:

```
Path                                 Size       %
=====================================================
Root                                 63412  100.00%
├── (hidden)                           312    0.49%
├── modules                          24170   38.12%
│   └── loramac-node                 23864   37.63%
├── zephyr                           33016   52.07%
└── app                               5914    9.33%
```

WLE5JC has 256 KB flash, 2 KB pages. I want MCUboot + two slots + storage"""),
        ("A", """With 63 KB today you can afford a comfortable layout. A proposal for 256 KB:

| partition | offset | size |
|---|---|---|
| boot_partition (MCUboot) | 0x00000 | 48 KB |
| slot0_partition | 0x0C000 | 96 KB |
| slot1_partition | 0x24000 | 96 KB |
| storage_partition | 0x3C000 | 16 KB |

96 KB slots leave about 50% headroom over today's image. MCUboot in swap-using-move mode doesn't need a scratch partition. In devicetree:

```
&flash0 {
	partitions {
		compatible = "fixed-partitions";
		#address-cells = <1>;
		#size-cells = <1>;
		boot_partition: partition@0 { reg = <0x00000000 0x0000c000>; };
		slot0_partition: partition@c000 { reg = <0x0000c000 0x00018000>; };
		slot1_partition: partition@24000 { reg = <0x00024000 0x00018000>; };
		storage_partition: partition@3c000 { reg = <0x0003c000 0x00004000>; };
	};
};
```"""),
        ("U", """48K for mcuboot seems a lot?"""),
        ("A", """A minimal MCUboot build with ECDSA-P256 via tinycrypt is about 30-36 KB; 48 KB leaves space for serial recovery later. If flash gets tight you can shrink it to 40 KB, but moving the boot partition after devices are in the field is painful, so I'd keep the margin now."""),
        ("U", """fair. going with it"""),
        ("A", """Then also set `CONFIG_BOOTLOADER_MCUBOOT=y` in the app and build with sysbuild (`west build --sysbuild`), which builds and signs both images in one go."""),
    ]),
    ("ci-03", "2025/03/13 15:55", [
        ("U", """HIL test is flaky on the Pi runner, maybe 1 in 5 runs:

```
tests/hil/test_join.py::test_joins_within_60s FAILED
E   serial.serialutil.SerialException: device reports readiness to read but returned no data (device disconnected or multiple access on port?)
```

same test is rock solid on my laptop"""),
        ("A", """That specific pyserial error almost always means two processes have the port open. On a Raspberry Pi OS image the usual suspect is ModemManager, which probes every new ttyACM device for a few seconds after it appears - exactly when your test reopens the port after flashing.

Let me check what you can run on the Pi:

```
systemctl status ModemManager
sudo lsof /dev/ttyACM0
```

If ModemManager is there, either disable it (`sudo systemctl disable --now ModemManager`) or add a udev rule for your board's VID/PID with `ENV{ID_MM_DEVICE_IGNORE}="1"`."""),
        ("U", """ModemManager was running. disabled it. 30 runs green"""),
        ("A", """Great. Also refer to the board by `/dev/serial/by-id/...` instead of `ttyACM0` in the test config, so the two test boards can't swap names after a reboot."""),
        ("U", """can I make the udev rule survive re-imaging the pi? we reflash its sd card sometimes"""),
        ("A", """Keep the rule in the repo (for example `rig/udev/99-hive-hil.rules`) and install it from the runner's setup script, so a fresh image gets it on first provisioning:

```
sudo install -m 644 rig/udev/99-hive-hil.rules /etc/udev/rules.d/
sudo udevadm control --reload-rules && sudo udevadm trigger
```

The same script can disable ModemManager, so the two fixes travel together."""),
    ]),
    ("life-02", "2025/03/18 19:30", [
        ("U", """random q: I boulder 2-3x a week at the gym near Utrecht Centraal and my fingers are always sore the next day. Any warm-up routine you'd suggest? I'm around V4-V5"""),
        ("A", """Sore fingers at V4-V5 with that frequency is common, and a progressive warm-up helps. A 15-minute routine many coaches use:

1. 5 min general: skipping, arm circles, shoulder rotations with a band.
2. Finger mobility: open and close fists, wrist circles, gentle extensor stretches.
3. Easy climbing: 4-6 problems two or three grades below your max, on big holds.
4. Progressive loading: a couple of problems one grade below max before trying your project.

Also consider one rest day between sessions on the fingers, and keep hangboard work out until you've climbed consistently for a while. If soreness is in the joints rather than the muscles, get it looked at."""),
        ("U", """its more the skin and the tendons in the forearm. ok, will try the routine"""),
        ("A", """Forearm tendon soreness usually responds well to the easy-climbing part of that routine and to not stacking hard sessions back to back. Skin gets better with time; sanding callouses flat helps avoid flappers."""),
        ("U", """also is chalk bad for skin? my hands crack"""),
        ("A", """Chalk dries the skin, which is part of why it cracks. A climbing-specific balm (beeswax-based) in the evening, not right before climbing, helps the skin recover; washing the chalk off soon after the session matters too."""),
    ]),
    ("ci-04", "2025/03/19 10:10", [
        ("U", """Something between last week and today broke the weight test on HIL:

```
FAILED tests/hil/test_weight.py::test_reads_reference_mass - AssertionError: 1987.2 g not within 5 g of 2000.0 g
```

there are like 40 commits in between. ideas?"""),
        ("A", """This is a good case for `git bisect run`, since the test is automated. From a clean checkout on the Pi (or wherever the rig is reachable):

```
git bisect start
git bisect bad HEAD
git bisect good v3.0.0-rc2
git bisect run ./scripts/hil_bisect.sh
```

with `scripts/hil_bisect.sh` building, flashing and running only the failing test:

```sh
#!/bin/sh
west build -b hivescale_v3 app -p || exit 125   # 125 = skip commits that don't build
west flash --runner jlink || exit 125
pytest -q tests/hil/test_weight.py::test_reads_reference_mass
```

40 commits need about six rounds. Exit code 125 tells bisect to skip a commit rather than blame it."""),
        ("U", """ran it. result:

```
4c1e9a7 is the first bad commit
commit 4c1e9a7
Author: Daan <daan@hivescale.nl>
    sensor: switch HX711 to 10 Hz rate for faster wakeup
```"""),
        ("A", """That makes sense: at 10 Hz the HX711 has more noise and no 50/60 Hz rejection compared with 80 Hz... actually, it's the other way round: 10 Hz is the low-noise rate with mains rejection, 80 Hz is noisier. So a 13 g offset after the change more likely comes from the calibration constant, which was measured at the old rate; the HX711's offset differs between rates. Recalibrate at 10 Hz or store a calibration per rate."""),
        ("U", """yep, calibration was done at 80 Hz. Daan is redoing it. thanks!"""),
        ("A", """Good catch by bisect. It might be worth adding the rate to the calibration record so a mismatch fails loudly at boot."""),
    ]),
    ("ci-05", "2025/03/20 16:45", [
        ("U", """We turned Jenkins off today! Branch protection now requires the `firmware / build` and `firmware / hil` checks. The Mac mini goes to Pieter's kid, apparently. What should I clean up before wiping it?"""),
        ("A", """Congrats. A short checklist before wiping:

- Export anything you might need later: `~/.jenkins/jobs/*/builds/*/archive` for release binaries, and the `config.xml` of each job in case someone asks how a release was built.
- Revoke credentials the box held: the GitHub deploy key or token Jenkins used, any J-Link or cloud API keys in the Jenkins credential store.
- Remove the webhook pointing at Jenkins from the GitHub repo settings, otherwise every push logs a failed delivery.
- Update docs or the README that mention Jenkins.

Then erase the disk with "Erase All Content and Settings" or a reinstall."""),
        ("U", """the webhook, good one, forgot that. release binaries are also in github releases since v2.3 so only older ones to export"""),
        ("A", """Then export the archives from before v2.3 only and attach them to their tags as release assets, so everything lives in one place."""),
        ("U", """how do I find the webhook via the api? don't have admin on the org, only the repo"""),
        ("A", """Repository admins can list and delete the repo's hooks:

```
gh api repos/hivescale/hive-fw/hooks --jq '.[] | {id, url: .config.url}'
gh api -X DELETE repos/hivescale/hive-fw/hooks/<id>
```

An org-level webhook would need org admin, but Jenkins setups usually use a repo hook."""),
    ]),
    ("rust-02", "2025/03/25 21:05", [
        ("U", """sapling: reading the capacitive sensor on GP26 with embassy-rp adc. compile error:

```
error[E0277]: the trait bound `PIN_26: AdcChannel<Adc<'_, Async>>` is not satisfied
  --> src/main.rs:31:34
   |
31 |     let level = adc.read(&mut p.PIN_26).await.unwrap();
   |                     ---- ^^^^^^^^^^^^^ the trait `AdcChannel<Adc<'_, Async>>` is not implemented for `PIN_26`
```"""),
        ("A", """In recent embassy-rp versions you don't pass the pin directly; you wrap it in an `adc::Channel` first, which also sets the pin's pull configuration:

```rust
let mut adc = Adc::new(p.ADC, Irqs, adc::Config::default());
let mut moisture = adc::Channel::new_pin(p.PIN_26, Pull::None);
let level = adc.read(&mut moisture).await.unwrap();
```

And declare the interrupt binding once at the top:

```rust
bind_interrupts!(struct Irqs {
    ADC_IRQ_FIFO => adc::InterruptHandler;
});
```"""),
        ("U", """compiles. dry soil 2810, glass of water 1290. makes sense?"""),
        ("A", """Yes, capacitive sensors read lower when wet, and a range of about 1300-2800 on a 12-bit ADC is typical for the common v1.2 boards. Map it linearly to 0-100% between those two calibration points and clamp. The readings drift with temperature a bit, so averaging 16 samples helps."""),
        ("U", """how do I average 16 samples without blocking the other task"""),
        ("A", """Each `adc.read(...).await` yields to the executor while the conversion runs, so a plain loop doesn't block other tasks:

```rust
let mut sum: u32 = 0;
for _ in 0..16 {
    sum += adc.read(&mut moisture).await.unwrap() as u32;
    Timer::after_millis(5).await;
}
let level = (sum / 16) as u16;
```

The small `Timer` between reads spreads the samples out a bit, which averages some of the sensor's ripple."""),
    ]),
    ("fw-04", "2025/04/01 11:35", [
        ("U", """Architecture question. Right now the sensor read, the LoRaWAN send and the battery check all happen in main() in a loop with k_sleep. Daan wants threads. I think a work queue is enough. Opinions?"""),
        ("A", """For a device that wakes every 30 minutes, does three things in sequence and sleeps again, I'd lean towards your option. Separate threads each need their own stack (1-2 KB each on the WL, which has 64 KB RAM), and you'd have to coordinate them anyway because the send depends on the readings.

A middle ground:

- one `k_work_delayable` that runs the measurement cycle and reschedules itself every 30 minutes;
- the LoRaWAN send called from the same work item (it blocks for the RX windows, so use a dedicated work queue, not the system one);
- a hardware watchdog fed at the end of each successful cycle, with a timeout of, say, 2x the cycle.

That keeps one stack, one place to read the sequence, and the watchdog catches a hung radio."""),
        ("U", """dedicated work queue because lorawan_send blocks ~2s in the rx windows?"""),
        ("A", """Exactly. `lorawan_send` with confirmed uplinks waits for RX1 and RX2, and on the system work queue that would delay every other driver's deferred work (including some sensor drivers' own work items). A small dedicated queue, 2 KB stack, is cheap:

```c
K_THREAD_STACK_DEFINE(cycle_stack, 2048);
static struct k_work_q cycle_q;

k_work_queue_start(&cycle_q, cycle_stack, K_THREAD_STACK_SIZEOF(cycle_stack),
                   K_PRIO_PREEMPT(5), NULL);
k_work_schedule_for_queue(&cycle_q, &cycle_work, K_NO_WAIT);
```"""),
        ("U", """ok do it that way, I'll show Daan"""),
        ("A", """When you show him, the argument that usually lands is the RAM: 64 KB total, with the LoRaWAN stack and NVS already using a good part of it."""),
    ]),
    ("lora-03", "2025/04/08 09:20", [
        ("U", """Planning the field pilot. It's 40 hives at a beekeeping association in Wageningen, starting 12 May. They have one TTN gateway on the clubhouse roof, hives are within 1.5 km. What should the firmware do differently for a pilot vs production?"""),
        ("A", """For a pilot the goal is learning, so I'd bias towards observability over battery life:

- **Diagnostic uplink**: once a day, send a second frame on another FPort with reset reason, uptime, join count, last RSSI/SNR of the downlink, and the min battery voltage under TX load.
- **Remote config by downlink**: measurement interval and ADR on/off settable via downlink, so you can change behaviour without visiting 40 hives.
- **Confirmed uplinks off**: with one gateway and 40 nodes, confirmed uplinks would hit the gateway's downlink duty cycle (10% on the RX2 sub-band, 1% on most others).
- **Rejoin policy**: rejoin after N days without a downlink, with randomised backoff, so a gateway outage doesn't make all 40 rejoin at once.

And log the firmware version in the diagnostic frame - there will be two versions in the field sooner than you think."""),
        ("U", """we can't do OTA so 2 versions in the field would mean driving there lol. downlink config yes, good"""),
        ("A", """Then the downlink config is even more valuable. Keep the payload tiny (one command byte plus value) and acknowledge it in the next diagnostic frame so you can see from the console which nodes applied it."""),
        ("U", """what interval for the diagnostic frame? daily ok?"""),
        ("A", """Daily is a good default: 48 data uplinks plus one diagnostic frame adds about 2% airtime. If something goes wrong you can raise it by downlink for the affected nodes only."""),
    ]),
    ("ci-07", "2025/04/10 10:05", [
        ("U", """CI build time went from 4 to 11 minutes this week. the west update step:

```
Run west init -l hive-fw && west update --narrow -o=--depth=1
=== updating zephyr (zephyr):
--- zephyr: fetching, need revision v3.7.0
remote: Enumerating objects: 1043412, done.
...
real    7m12.882s
```

why is it fetching everything"""),
        ("A", """`--narrow -o=--depth=1` should fetch only the revision, but with a tag like `v3.7.0` some west versions fetch the full history to resolve it. Two fixes:

1. Cache the workspace between runs with `actions/cache`, keyed on the hash of `west.yml`:

```yaml
- uses: actions/cache@v4
  with:
    path: |
      zephyr
      modules
      .west
    key: west-${{ hashFiles('hive-fw/west.yml') }}
```

2. Pin `zephyr`'s revision to the commit SHA of the tag in `west.yml`, which makes the shallow fetch work reliably.

With the cache, the step usually takes well under a minute."""),
        ("U", """did both. 3m40s total now"""),
        ("A", """Good, faster than before the regression. The cache is invalidated only when `west.yml` changes, so the Zephyr 3.7.x upgrades will cost one slow build each."""),
        ("U", """btw who pays for the runners, we're on the free org plan"""),
        ("A", """Public repos get hosted runners for free; private repos on the Free plan get 2,000 minutes a month. At ~4 minutes per build and a few dozen builds a week you're around 500-700 minutes a month, under the limit. Self-hosted runner minutes (your Pi) don't count."""),
        ("U", """ok good, we're fine then"""),
        ("A", """Keep an eye on the usage page in the org settings after big weeks; release weeks with many PRs are where it spikes."""),
    ]),
    ("rust-03", "2025/04/15 22:10", [
        ("U", """course week 7. sapling now reads moisture every 10 min, I want it to publish over mqtt to home assistant via the pico w wifi. embassy-net + cyw43 + rust-mqtt? getting

```
panicked at src/main.rs:88:42:
called `Result::unwrap()` on an `Err` value: Network
```"""),
        ("A", """`Network` from rust-mqtt usually means the TCP connection failed or was closed during CONNECT. Let me go through the frequent causes with cyw43 and embassy-net:

1. **DHCP not finished.** Wait for the stack to be configured before connecting: `stack.wait_config_up().await;`
2. **Socket buffers too small.** rust-mqtt needs at least the size of its own buffers in the TCP socket's RX/TX buffers; 1024 each is a safe start.
3. **Broker address.** Home Assistant's Mosquitto add-on listens on 1883 and requires a username and password by default; an anonymous CONNECT gets closed immediately, which surfaces as `Network`, not as a refused CONNACK.

Number 3 is the most common one with Home Assistant."""),
        ("U", """it was 3. made a user in HA, works. values showing up in a dashboard 🎉"""),
        ("A", """Nice milestone for week 7. If you want autodiscovery, publish a config message to `homeassistant/sensor/sapling/moisture/config` once at boot and HA creates the entity by itself."""),
        ("U", """how long does the wifi connect take? thinking about battery later"""),
        ("A", """With cyw43 on the Pico W, association plus DHCP is typically 2-4 seconds, at around 50-70 mA while the radio is up. For a battery build that's the dominant cost per reading, so reporting every 30-60 minutes instead of every 10 makes a big difference; a static IP saves the DHCP round trip too."""),
    ]),
    ("life-04", "2025/04/23 08:55", [
        ("U", """Update: Pieter left last Friday, he took a job at a drone company. My new manager is Ana Kovač, she led the hardware team and now manages both hardware and firmware since yesterday. First 1:1 with her on Thursday. Any tips for a first 1:1 with a new manager who used to be a peer-ish?"""),
        ("A", """A first 1:1 with someone you already worked alongside is a good chance to reset expectations explicitly rather than assume them. Topics worth bringing:

- **How she likes to work**: frequency of 1:1s, how she wants updates (written, in meetings), when to escalate.
- **What you're working on and why**: the Zephyr port, the pilot, the CI move; she knows the hardware side but maybe not the firmware priorities.
- **What Pieter and you had agreed**: anything from your review (growth goals, scope) so it doesn't get lost in the handover.
- **What you need from her**: decisions that are pending, e.g. OTA or not, pilot scope.

And ask what she's worried about - it tells you her priorities faster than anything else."""),
        ("U", """the review stuff is a good point, pieter said he'd push for senior in the summer. will bring it up"""),
        ("A", """Definitely bring it up and ask whether it's written down anywhere. Promotion commitments are the thing most often lost in a manager change. If it isn't, a short follow-up email after the 1:1 summarising what you agreed gives both of you a record."""),
        ("U", """Update after the 1:1: ana wants weekly 1:1s, 30 min on thursdays, and written updates in the team channel on fridays. She didn't know about the senior thing, will check with HR."""),
        ("A", """That's a clear setup. Good that you raised the promotion; a short email today saying "as discussed, Pieter planned to put me forward for senior in the summer round, you'll check with HR" gives you both a record."""),
    ]),
    ("rust-04", "2025/04/24 20:30", [
        ("U", """Course is done, last class was Tuesday 22 April. I demoed sapling: moisture over MQTT to Home Assistant, with a deep sleep between readings. Teacher liked it. Now I kind of want to compare embassy with what we do in Zephyr at work"""),
        ("A", """That's a nice place to end a course. A few honest points of comparison for your case:

- **Concurrency model**: Embassy's async tasks share one stack and are cooperative; Zephyr threads each have their own stack and are preemptive. For a sensor that wakes, measures and sends, async maps naturally and saves RAM.
- **Ecosystem for your product**: Zephyr has a maintained LoRaWAN stack, MCUboot, NVS and vendor support for the STM32WL. Embassy has `lora-phy` and `lorawan-device`, which work, but you'd own more of the integration.
- **Certification and hiring**: C and Zephyr are easier to staff today in the Netherlands' embedded market.

So: great for side projects and new small devices, but a port of the hive scale would trade a lot of maintained code for nicer ergonomics."""),
        ("U", """yeah that's what I figured. sapling stays my playground"""),
        ("A", """A good playground is worth a lot. If you ever want to put sapling on batteries, the RP2040's dormant mode plus an RTC wake-up would be the next thing to learn."""),
        ("U", """any embassy meetups in NL?"""),
        ("A", """The Rust community in the Netherlands has regular meetups (Rust Nederland in Amsterdam and Utrecht, and the Rust embedded community chat on Matrix), and there are embedded talks now and then. The Embassy Matrix channel is the most active place for questions about embassy itself."""),
    ]),
    ("power-03", "2025/04/29 14:00", [
        ("U", """Can you sanity check my battery life estimate? Inputs:

- sleep: 4.1 µA
- uplink every 30 min: 185 ms TX at 42 mA, plus RX windows ~ 2x 30 ms at 6 mA
- measurement: HX711 awake 400 ms at 1.6 mA, SHT40 10 ms at 0.4 mA
- 2x L91, 3000 mAh usable

I get about 26 months"""),
        ("A", """Let me redo it per day:

```
sleep          4.1 µA x 24 h                      = 98.4 µAh
tx             42 mA x 0.185 s x 48 / 3600        = 103.6 µAh
rx windows     6 mA x 0.060 s x 48 / 3600         =   4.8 µAh
hx711          1.6 mA x 0.4 s x 48 / 3600         =   8.5 µAh
sht40          0.4 mA x 0.01 s x 48 / 3600        =   0.05 µAh
-------------------------------------------------------------
total                                              ≈ 215 µAh/day
```

3000 mAh / 0.215 mAh per day ≈ 13,950 days... that's off by a lot; let me recheck. 215 µAh is 0.215 mAh, and 3000 / 0.215 = 13,953 days, about 38 years, which can't be right because the tx line is wrong: 42 mA x 0.185 s = 7.77 mAs per uplink, x 48 = 373 mAs = 0.1036 mAh per day, i.e. 103.6 µAh. That stands. Sleep: 4.1 µA x 24 h = 98.4 µAh. So the total is 0.215 mAh/day, and the real limits are elsewhere: self-discharge and the cells' capacity at low temperature.

For L91s in a hive over winter, derate to about 60% usable capacity at low temperature and add 1-2% per year self-discharge. That still gives years, not months, from these inputs, so if your 26 months is from a spreadsheet, I'd look for a units slip in it (mA vs µA is the usual one) - or you included something else, like the daily diagnostic frame at SF12, retransmissions or the join."""),
        ("U", """oh. my spreadsheet had the hx711 at 1.6 mA for 4 s not 0.4 s, and tx at SF12 worst case. so it's a worst case, ok. 26 months worst case is fine against 18 months"""),
        ("A", """Then your estimate is a sound worst case and comfortably above the 18-month target. I'd present both numbers to Ana: typical (from measured SF distribution after the pilot) and worst case (SF12 everywhere)."""),
        ("U", """what's a realistic SF distribution to use for 'typical'?"""),
        ("A", """Without field data, a common assumption for a site with one gateway within 1.5 km is about 60% of nodes at SF7-SF8, 30% at SF9 and 10% at SF10 or above once ADR settles. But the pilot will give you the real distribution within a couple of weeks, which is far better than any assumption."""),
    ]),
    ("fw-05", "2025/05/05 10:40", [
        ("U", """Ana asked me to write up whether we do firmware updates over LoRaWAN (FUOTA) for the pilot. My gut says no. Can you help me with the pros and cons?"""),
        ("A", """Here's a balanced write-up you can adapt.

**FUOTA over LoRaWAN for the pilot - recommendation: not for the pilot, prepare for production.**

Pros:
- Fixes reach all 40 hives without a field visit.
- Zephyr 3.7 supports the LoRa Alliance FUOTA packages (clock sync, remote multicast setup, fragmented data block transport) with `CONFIG_LORAWAN_FRAG_TRANSPORT`.

Cons:
- A 60 KB image in fragments at SF9 means hundreds of downlinks in a class C or class B session; with one gateway on 1% and 10% duty cycles that's hours per update and heavy battery use.
- It needs the network server's FUOTA application server, which the community network doesn't offer.
- Failure modes (half-received images, power loss during swap) need testing you don't have time for before May.

Mitigation for the pilot: the downlink config commands, plus MCUboot already in place so production can add FUOTA without repartitioning."""),
        ("U", """great, that's basically my argument. sending to ana"""),
        ("A", """One addition she may ask about: the cost of a field visit. If a visit to Wageningen is half a day for one person, you can put a number on "we'd rather drive there twice than build FUOTA now"."""),
        ("U", """she asked how much work FUOTA would be later, ballpark?"""),
        ("A", """A rough estimate for a small team: 4-6 weeks of firmware work (fragmentation integration, multicast session handling, MCUboot swap and rollback tests), plus server-side work on the network server's FUOTA application, plus a week of field testing with a handful of nodes. The testing is the part people underestimate."""),
    ]),
    ("fw-06", "2025/05/06 17:25", [
        ("U", """ugh. Update: the pilot moves from 12 May to 2 June. The enclosure supplier (the injection-moulded lids) slipped three weeks. Ana told the beekeepers today. On the bright side, more time for the load cell noise problem"""),
        ("A", """Annoying, but three weeks is useful for firmware. If the load cell noise is the main open item, a plan for the extra time could be:

1. Characterise the noise: log raw counts at 10 Hz for an hour with a fixed reference mass, at room temperature and in the climate chamber if you have access to one.
2. Separate noise from drift: noise is the spread within a minute, drift is the change across the hour.
3. Decide whether it's the amplifier, the reference, or the load cell wiring, before touching filtering code.

What does the noise look like now?"""),
        ("U", """about ±15 g peak to peak on a 2 kg reference, drifts ~40 g between 10 and 30 °C"""),
        ("A", """±15 g peak-to-peak at 10 Hz is more than an HX711 should give on a decent load cell; its datasheet noise at 10 Hz and gain 128 is around 50 nV rms. The temperature drift of 40 g over 20 °C is also high. Both suggest looking at the excitation and reference: the HX711 uses its own regulator output or AVDD as reference, and if that's the same noisy rail the MCU uses for TX bursts, you'll see it. A ratiometric ADC with a separate reference, like the ADS1232, is a common fix in scales."""),
        ("U", """interesting, the hardware guys mentioned the ADS1232 too. will talk to them"""),
        ("A", """It has a 24-bit ADC with a built-in 50/60 Hz rejection at 10 SPS, a ratiometric reference input and a power-down pin, so the firmware side is simple. The driver is only a few dozen lines over SPI-like bit-banging."""),
    ]),
    ("life-03", "2025/05/10 12:10", [
        ("U", """I'm an aunt!! My sister Femke had her baby yesterday (9 May), a girl called Lotte. Everyone's fine. I want to get something nice that isn't more baby clothes, any ideas? budget ~75 euro"""),
        ("A", """Congratulations! Some ideas that parents often appreciate more than clothes:

- A **meal delivery voucher** or cooking a few freezer meals yourself - the first weeks are exhausting.
- A **photo book** voucher so they can make one from the first months.
- A **personalised wooden name puzzle** with "Lotte" - it lasts for years.
- **A babysitting promise**: a card with a few evenings you'll take over, plus a nice bottle for the parents.
- A **good baby carrier or sling** if they don't have one (ask first, people have strong preferences).

The freezer meals plus the name puzzle fits your budget and covers both now and later."""),
        ("U", """name puzzle + babysitting card. love it"""),
        ("A", """Lovely combination. Enjoy meeting Lotte!"""),
        ("U", """also they live in Groningen, I'm visiting on the 24th. 2.5h by train from Utrecht"""),
        ("A", """That's a nice date to visit: far enough from the birth for them to have settled a bit. Check with Femke the day before in case they need a quiet day; new parents' plans change by the hour."""),
    ]),
    ("power-04", "2025/05/14 09:05", [
        ("U", """FYI the battery life target changed: sales promised a customer 24 months, so the requirement is now 24 months, not 18. Ana signed off on it. My worst-case estimate is 26 months so it's tight. What can I still squeeze?"""),
        ("A", """With 26 months worst case against 24 you have under 10% margin, so it's worth taking the cheap wins:

- **Stop 2 instead of Stop 1**: check what Zephyr actually enters. On the STM32WL the `stop2` state needs `CONFIG_PM=y` and `cpu-power-states` listing it; if only stop0/1 are listed you lose ~1-2 µA.
- **LSE for the RTC**: an external 32.768 kHz crystal keeps the low-power timer accurate; running on LSI costs a bit and drifts the uplink timing.
- **HX711 awake time**: your worst case assumes 4 s; the HX711 settles in 400 ms at 10 Hz, so cap it.
- **Skip the uplink when nothing changed**: send every 30 min only when weight changes by more than 100 g, otherwise every 2 hours. Beekeepers mostly care about swarms and honey flow, which are big changes.

The last one is the biggest lever, but it's a product decision."""),
        ("U", """stop2 is already there? let me check

```
$ grep -A3 cpu-power-states build/zephyr/zephyr.dts
		cpu-power-states = <&stop0 &stop1>;
```

nope!"""),
        ("A", """There you go. Add `&stop2` in your board overlay:

```
&cpu0 {
	cpu-power-states = <&stop0 &stop1 &stop2>;
};
```

and measure again; also check that the LPTIM is the system timer (`CONFIG_STM32_LPTIM_TIMER=y`), since only LPTIM keeps running in Stop 2."""),
        ("U", """will measure tomorrow, the PPK2 is at Daan's desk"""),
        ("A", """Sounds good. Measure the same window as before so the numbers are comparable."""),
    ]),
    ("fw-07", "2025/05/20 15:15", [
        ("U", """Decision made: we're swapping the HX711 for the ADS1232 on the v3 board, because of the noise and the temperature drift (±15 g and 40 g over 20 °C). Hardware respun a small batch, first board on my desk. Writing the driver now. The ADS1232's DRDY/DOUT is shared like on the HX711, right?"""),
        ("A", """Yes, same idea: DRDY/DOUT goes low when a conversion is ready, then you clock out 24 bits on SCLK, MSB first. Differences to watch:

- The ADS1232 latches data on the rising SCLK edge and you read on the falling edge; timing minimums are in the hundreds of ns, so bit-banging with GPIO is fine.
- A 25th SCLK pulse forces DOUT high until the next conversion (so the pin doesn't float between reads - that bites you otherwise).
- Gain and speed are pins (GAIN0/1, SPEED), not clock-pulse counts as on the HX711.
- PDWN low powers it down; after power-up the first conversions need ~400 ms at 10 SPS to settle.

A minimal read:

```c
static int ads1232_read(const struct ads1232_cfg *cfg, int32_t *out)
{
	uint32_t raw = 0;

	if (!wait_for_low(cfg->dout, K_MSEC(150))) {
		return -ETIMEDOUT;
	}
	for (int i = 0; i < 24; i++) {
		gpio_pin_set_dt(&cfg->sclk, 1);
		k_busy_wait(1);
		gpio_pin_set_dt(&cfg->sclk, 0);
		raw = (raw << 1) | gpio_pin_get_dt(&cfg->dout);
	}
	pulse(&cfg->sclk);   /* 25th pulse: DOUT high until next conversion */
	*out = sign_extend_24(raw);
	return 0;
}
```"""),
        ("U", """first numbers: ±2 g p-p on the 2 kg reference. drift test tonight in the climate chamber"""),
        ("A", """That's a big improvement, from ±15 g to ±2 g. For the drift test, log the board temperature next to the readings; if drift remains, a linear temperature coefficient per board usually removes most of it."""),
        ("U", """drift test: 4.6 g over 10-30 °C, linear. way better than the 40 g of the HX711"""),
        ("A", """About a tenth of the old drift, and linear, so a single temperature coefficient will remove most of it. Keep the raw log; it's the basis for the coefficient and for the end-of-line calibration later."""),
    ]),
    ("lora-04", "2025/05/22 11:50", [
        ("U", """Did the payload change. New format is 7 bytes instead of the 11-byte Cayenne LPP: version byte, 15 bits weight (10 g), 10 bits temp, 7 bits humidity, 8 bits battery, 1 status byte. Now I need the payload formatter in The Things Stack. Can you write the JS decoder?"""),
        ("A", """Here's a decoder for The Things Stack's `decodeUplink` interface, assuming big-endian packing of the 40 data bits after the version byte, then the status byte:

```js
function decodeUplink(input) {
  var b = input.bytes;
  if (b.length !== 7 || b[0] !== 2) {
    return { errors: ["unknown payload version or length"] };
  }
  var bits = 0n;
  for (var i = 1; i <= 5; i++) bits = (bits << 8n) | BigInt(b[i]);
  var weight = Number((bits >> 25n) & 0x7fffn) * 10;      // grams
  var temp = Number((bits >> 15n) & 0x3ffn) / 10 - 20;   // °C
  var hum = Number((bits >> 8n) & 0x7fn);                // %
  var batt = 2000 + Number(bits & 0xffn) * 10;           // mV
  return {
    data: { weight_g: weight, temperature_c: temp, humidity: hum,
            battery_mv: batt, status: b[6] },
  };
}
```

Test it in the console's "Test" tab with a known frame before switching the application's formatter, and keep the Cayenne formatter available for the nodes still on version 1."""),
        ("U", """does TTS support BigInt in formatters?"""),
        ("A", """Not reliably - the formatter runtime is an older JavaScript engine. Safer to avoid BigInt and use two 32-bit-safe pieces:

```js
var hi = (b[1] << 8) | b[2];              // first 16 bits
var lo = ((b[3] << 16) | (b[4] << 8) | b[5]) >>> 0;  // last 24 bits
var weight = (hi >> 1) * 10;
var temp = (((hi & 1) << 9) | (lo >>> 15)) / 10 - 20;
var hum = (lo >>> 8) & 0x7f;
var batt = 2000 + (lo & 0xff) * 10;
```"""),
        ("U", """tested with a frame from the bench board: 24.31 kg, 21.4 °C, 63 %, 3.03 V. correct!"""),
        ("A", """Good. Keep that frame as a fixture in the firmware repo's tests, with the expected decoded values, so the encoder and the formatter can't drift apart silently."""),
    ]),
    ("fw-08", "2025/06/03 08:30", [
        ("U", """The pilot started yesterday, 2 June! 40 hives at the Wageningen beekeeping association, all with the ADS1232 boards. 39 joined within the first hour. One didn't. Its serial log from when we were on site:

```
*** Booting Zephyr OS build v3.7.0 ***
[00:00:00.012,000] <inf> hive: fw 3.1.0 board hivescale_v3 sn 0427
[00:00:00.530,000] <inf> lorawan: Joining network over OTAA
[00:00:06.842,000] <wrn> lorawan: MlmeConfirm failed : Rx 2 timeout
[00:01:09.120,000] <wrn> lorawan: MlmeConfirm failed : Rx 2 timeout
[00:03:11.455,000] <wrn> lorawan: MlmeConfirm failed : Rx 2 timeout
```

The gateway sees its join requests in the console with RSSI -121 dBm."""),
        ("A", """The gateway sees the join request, so the uplink reaches it, but the node never receives the join-accept. At RSSI -121 dBm the link is at the edge for SF9 (sensitivity around -126 dBm at SF9, so ~5 dB margin), and the downlink has its own budget: the gateway transmits at up to 14 dBm ERP on EU868 and the node's antenna may be worse in receive due to its orientation or nearby metal.

Things to check, in order of effort:

1. In the console, does the network server schedule the join-accept at all? Look for `ns.down.join.schedule.success` or `...fail`. If scheduling fails (duty cycle), it's a gateway issue.
2. Where is hive 0427 physically? Behind a metal roof, inside a stack of hive boxes, near the ground?
3. Does your firmware start joins at SF9 or use the default join data rate? Starting the join at SF12 (DR0) gives ~9 dB more link budget for the join only."""),
        ("U", """schedule success, so the gateway sends it. hive 0427 is the furthest one, in a hollow behind a hedge. we do start joins at DR3 (SF9)"""),
        ("A", """Then the join at SF9 probably fails on the downlink leg. Two options that don't need a site visit aren't available, since the node can't join to receive a downlink config. So for this one node, a visit is needed anyway: either move the hive's node a meter higher (the hedge and ground absorb a lot) or flash a build that tries joins from DR0 after three failures. The second is worth doing for every node in the next firmware version: many stacks step the join data rate down automatically for exactly this reason."""),
        ("U", """beekeeper is moving the hive 20 m on thursday anyway. will see. adding the DR fallback for 3.1.1"""),
        ("A", """Good plan. When you implement it, log the DR that finally succeeded in the diagnostic frame, so you know how many nodes need it."""),
    ]),
    ("life-05", "2025/06/05 21:50", [
        ("U", """personal one. we're moving! my partner Joris got a job at a chip equipment company in Veldhoven, so we're moving from Utrecht to Eindhoven on 14 June. I keep my job, Ana agreed to 3 days remote and 2 days in the Utrecht office. Help me make a moving checklist for the Netherlands? gemeente stuff etc"""),
        ("A", """Congratulations to Joris! A checklist for a move within the Netherlands:

**Before the move**
- Register the new address with the gemeente Eindhoven (you can do this up to 4 weeks before and at most 5 days after the move, online with DigiD).
- Tell your health insurer, bank and employer (payroll address). Most other organisations pick up the address from the BRP automatically, the Belastingdienst included.
- Energy, internet, water: cancel or move contracts; internet providers often need 2-3 weeks to install.
- Parking permit in Eindhoven if you have a car.

**Moving day**
- Meter readings (gas, electricity, water) at both addresses, with photos.
- Keys and handover report for the Utrecht place.

**After**
- Update your address at the GP; register with a new huisarts in Eindhoven, as many practices have waiting lists.
- NS: set up a business card or a subscription for the Eindhoven-Utrecht commute (about 50 min by intercity)."""),
        ("U", """the huisarts thing I didn't know. registering this week"""),
        ("A", """Good idea; in Eindhoven some practices only take new patients who live in their area, so check the postcode area on their website first."""),
        ("U", """do I need to deregister in utrecht separately?"""),
        ("A", """No. When you register at the new address in Eindhoven, the BRP moves your registration; Utrecht deregisters you automatically. You only deal with Utrecht for things like a parking permit or waste-collection pass, which you cancel yourself."""),
    ]),
    ("lora-05", "2025/06/10 13:20", [
        ("U", """Pilot update: besides the 40 hives in Wageningen we added 12 hives at the city apiary in Utrecht (Ana's idea, close to the office so we can visit), same firmware 3.1.1. They go through a different gateway. Here's the RSSI/SNR summary from the first week, exported from our dashboard:

```
site        nodes  rssi_median  snr_median  sf_median  joins_per_node
wageningen     40       -108.5         4.2        SF9            1.05
utrecht        12        -97.0         8.9        SF7            1.00
```

Can ADR move the Wageningen nodes down from SF9?"""),
        ("A", """With a median SNR of 4.2 dB at SF9, ADR has room: the required SNR at SF9 is -12.5 dB, so the margin is ~16 dB. The Things Stack's ADR subtracts a margin (15 dB by default) and steps down one SF per 2.5 dB beyond that, so the median node should end up around SF8, and the stronger half at SF7.

ADR needs about 20 uplinks to collect enough history; at one per 30 minutes that's 10 hours, so after a week you should already see it. If `sf_median` is still SF9, check:

- `CONFIG_LORAWAN_ADR` or the call `lorawan_enable_adr(true)` in your firmware;
- whether the device's MAC settings in the console have "ADR" set to dynamic.

Utrecht at SF7 with 8.9 dB SNR is what ADR should produce."""),
        ("U", """lorawan_enable_adr(true) is called BEFORE join in our code. does that matter?"""),
        ("A", """Yes, in some Zephyr versions the ADR setting is reset when the MAC layer joins, so call `lorawan_enable_adr(true)` after `lorawan_join()` returns successfully. That would explain why Utrecht looks right (strong signal, default data rate already near SF7 after join) while Wageningen stays at SF9."""),
        ("U", """moved it after the join on my bench board, ADR kicks in. will be in 3.1.2"""),
        ("A", """Nice find. Since you can't update the field nodes over the air, you could set the data rate for the Wageningen nodes via a downlink `LinkADRReq` from the network server as a stopgap."""),
    ]),
    ("life-06", "2025/06/18 19:05", [
        ("U", """moved to eindhoven last saturday (14 june)! boxes everywhere. commuting to utrecht tue and thu now, train is ~50 min. other days home office. I need a desk setup that doesn't kill my back, I'm 1.78 m and the desk is fixed 74 cm"""),
        ("A", """Welcome to Eindhoven! At 1.78 m a fixed 74 cm desk is a bit low for typing if the chair is set right, so the usual fix is to adjust the chair and support your feet:

- **Chair**: set it so your elbows are at desk height with relaxed shoulders, forearms roughly horizontal. At 1.78 m that's a seat height of around 48-50 cm.
- **Feet**: if your feet don't rest flat at that height, they will at 1.78 m, so no footrest needed.
- **Monitor**: top of the screen at or slightly below eye level, an arm's length away. A laptop alone is bad for the neck; a stand plus external keyboard fixes most of it.
- **Breaks**: stand up every 30-45 minutes; with a home office it's easy to sit for three hours straight.

If the desk still feels low, 4-5 cm leg risers are cheap."""),
        ("U", """laptop stand + keyboard it is. thanks"""),
        ("A", """Enjoy the new place."""),
        ("U", """also any tips for finding a bouldering gym in eindhoven?"""),
        ("A", """Eindhoven has a couple of climbing and bouldering gyms; searching on a map for "boulderhal Eindhoven" shows the current ones, and most offer a trial entry, so you can try each before committing to a subscription."""),
    ]),
    ("power-05", "2025/06/24 10:30", [
        ("U", """Good news. Measured one of the returned Utrecht nodes (a beekeeper dropped it, case cracked) with firmware 3.1.2, which has stop2 enabled: sleep current is now 3.2 µA, down from 4.1. The PPK2 trace:

```
window        avg_uA   p99_uA
sleep         3.21     3.9
sleep         3.18     3.8
uplink+rx     --       42.4 mA peak
```"""),
        ("A", """That's a solid improvement: 0.9 µA less, about 22 µAh per day, and it took the firmware from 38 µA at the start of the port to 3.2 µA, lower than the old FreeRTOS firmware's 6 µA.

For the 24-month requirement, the sleep share of your daily budget is now about 77 µAh of ~190 µAh per day (with typical SF from ADR), so transmissions dominate. Further gains would come from fewer or shorter uplinks, not sleep current."""),
        ("U", """yep. ana wants the final battery report for the end of august, after the pilot has run 3 months"""),
        ("A", """Three months of field data is a good basis. For the report, take the battery voltage under TX load from the diagnostic frame rather than idle voltage; lithium cells hold a flat idle voltage until they're nearly empty, so only the loaded voltage shows the trend."""),
        ("U", """can you write the one-line summary for the changelog"""),
        ("A", """"3.1.2: enable the STM32WL's Stop 2 state; sleep current down from 4.1 µA to 3.2 µA (PPK2, returned pilot node)." """),
    ]),
    ("lora-07", "2025/06/26 15:35", [
        ("U", """weird one. a few Utrecht nodes report humidity 127% sometimes. decoder output:

```json
{"weight_g": 31250, "temperature_c": 24.1, "humidity": 127, "battery_mv": 3120, "status": 4}
```

status 4 is our 'sensor error' flag"""),
        ("A", """127 is the maximum of the 7-bit humidity field, so it looks like the firmware writes all ones when the SHT40 read fails, and the status byte's bit 2 says exactly that. The decoder should respect the flag: when the sensor-error bit is set, omit humidity (and temperature, if it comes from the same sensor) instead of reporting 127%.

```js
if (b[6] & 0x04) { delete data.humidity; delete data.temperature_c; }
```

Then the question is why the SHT40 read fails on those nodes."""),
        ("U", """they're the Utrecht ones in the sunny spot. SHT40 is next to the battery. heat?"""),
        ("A", """Heat alone shouldn't make the SHT40 fail; it works up to 125 °C. More likely candidates are condensation on the sensor (a sunny enclosure that cools at night), or an I2C timeout when the supply sags during the TX burst if the read is scheduled right after it. Does the error correlate with time of day?"""),
        ("U", """mostly between 5 and 7 in the morning. so condensation"""),
        ("A", """That fits condensation at dawn. The SHT40 has a built-in heater for exactly that: a short heater pulse (e.g. 20 mW for 0.1 s) before measuring when the previous reading was above 95% RH. Add a membrane vent on the enclosure too, if hardware can fit one in the next lid batch."""),
    ]),
    ("lora-06", "2025/07/01 09:40", [
        ("U", """We got a fair-use warning from the TTN community network for some Wageningen nodes (the ones still at SF9-SF10 send the daily diagnostic frame too, too much airtime). Decision: we moved the application to The Things Stack Cloud, the paid plan, yesterday. Ana approved the cost since we'd need it for production anyway. How do I migrate the devices without rejoining all of them?"""),
        ("A", """The Things Stack has a documented path for this: migrate the devices' sessions, not just their registrations, so they keep their DevAddr and keys and don't need to rejoin.

1. Export from the community cluster with the CLI, including the session:

```
ttn-lw-cli end-devices list hive-pilot --all > devices.json
ttn-lw-cli end-devices export hive-pilot --all --session > export.json
```

2. Import into your Cloud tenant:

```
ttn-lw-cli end-devices create --application-id hive-pilot < export.json
```

3. Delete or disable the devices on the community cluster only after you see uplinks in Cloud, otherwise two network servers compete.

The gateway also needs to point at the Cloud cluster (or use Packet Broker, which forwards traffic between them) - otherwise Cloud never sees the uplinks."""),
        ("U", """the wageningen gateway belongs to the beekeepers, it stays on community. so packet broker"""),
        ("A", """Then check that the community gateway is set to forward to Packet Broker (it is by default), and that your Cloud tenant has Packet Broker peering enabled. Traffic from the community gateway will then reach your Cloud application, with a small extra latency that LoRaWAN's RX windows tolerate."""),
        ("U", """export done, 52 devices, import ran:

```
$ ttn-lw-cli end-devices create --application-id hive-pilot < export.json
error:pkg/ttnpb:field_value_validation (invalid value for field `ids.application_ids.application_id`)
```"""),
        ("A", """The export carries the original application ID in each device's `ids`, and the create command validates it against the one you pass. If the Cloud application has a different ID (for example `hive-pilot-prod`), rewrite it in the file first:

```
jq -c '.ids.application_ids.application_id = "hive-pilot-prod"' export.json > export-cloud.json
```

and pass the same ID to `--application-id`."""),
    ]),
    ("data-01", "2025/07/03 14:25", [
        ("U", """our dashboard backend is a small Postgres (Timescale) that the TTS webhook writes into. I want daily weight change per hive for the Wageningen site. this query is slow and gives weird values:

```sql
SELECT device_id, date_trunc('day', received_at) AS day,
       max(weight_g) - min(weight_g) AS delta
FROM uplinks
WHERE site = 'wageningen'
GROUP BY 1, 2
ORDER BY 1, 2;
```

```
 device_id  |        day          | delta
------------+---------------------+-------
 hive-0401  | 2025-06-02 00:00:00 |  1840
 hive-0401  | 2025-06-03 00:00:00 |   460
 hive-0401  | 2025-06-04 00:00:00 | 31250
(3 rows shown of 1240)
```"""),
        ("A", """Two separate problems here.

**Weird values**: max minus min is not the day's change; it's the day's range. A beekeeper opening the hive and lifting off a super (31 kg on 4 June, I'd guess) shows up as a huge "delta". What you probably want is the change between the last reading of the day and the last reading of the day before:

```sql
SELECT device_id, day, last_w - lag(last_w) OVER (PARTITION BY device_id ORDER BY day) AS delta_g
FROM (
  SELECT device_id, time_bucket('1 day', received_at) AS day,
         last(weight_g, received_at) AS last_w
  FROM uplinks
  WHERE site = 'wageningen'
  GROUP BY 1, 2
) d
ORDER BY 1, 2;
```

**Slow**: with Timescale, a continuous aggregate of the daily `last(weight_g, received_at)` per device makes this instant, and an index on `(site, device_id, received_at DESC)` helps the raw query meanwhile."""),
        ("U", """way better. 4 june was indeed when they added a honey super. making the continuous aggregate now"""),
        ("A", """For the aggregate, set a refresh policy that lags a day behind (`start_offset => INTERVAL '3 days', end_offset => INTERVAL '1 hour'`), so late uplinks from nodes that were out of range still get counted."""),
        ("U", """```
CREATE MATERIALIZED VIEW
ERROR:  invalid continuous aggregate view
DETAIL:  Only immutable functions are supported for continuous aggregate query
```
the view uses time_bucket('1 day', received_at) with a timezone?"""),
        ("A", """If you wrote `time_bucket('1 day', received_at, 'Europe/Amsterdam')`, that form is supported for continuous aggregates only from TimescaleDB 2.8 on. Check the version with `SELECT extversion FROM pg_extension WHERE extname = 'timescaledb';`. On an older version, bucket in UTC and shift in the query that reads the aggregate."""),
    ]),
    ("fw-09", "2025/07/08 11:00", [
        ("U", """temperature compensation for the ADS1232 boards. climate chamber data for 5 boards, raw offset in grams at 2 kg reference vs board temp:

```
board  10C    20C    30C    40C
0401   -3.1   0.0    2.9    6.2
0402   -2.7   0.0    2.6    5.1
0417   -3.5   0.0    3.3    6.9
0433   -2.9   0.0    2.8    5.8
0450   -3.3   0.0    3.1    6.4
```

one coefficient for all, or per board?"""),
        ("A", """Let me fit the numbers. Per board, the slope is about 0.28-0.34 g/°C, with a slight upward curve above 30 °C. A single coefficient of 0.31 g/°C would leave residuals of up to ~1 g at 40 °C on boards 0402 and 0417, which is small against the ±2 g noise you measured.

So a single coefficient is good enough for the pilot. If you later want better, per-board coefficients stored in NVS at end-of-line calibration would get you under 0.5 g, but it costs a climate-chamber step per board in production."""),
        ("U", """single coefficient then. the hives are at 10-35 °C anyway"""),
        ("A", """In that range the linear fit is even better, since the curvature shows mostly above 30 °C. Put the coefficient in the same calibration record as the scale factor, so it's versioned with it."""),
        ("U", """where do I apply it, before or after the averaging?"""),
        ("A", """After the averaging, on the averaged value and the board temperature measured in the same cycle. Compensating each raw sample adds work for no benefit, since the temperature doesn't change within the 400 ms measurement window."""),
    ]),
    ("rust-05", "2025/07/12 16:40", [
        ("U", """weekend sapling hacking. put it on a 18650 with a TPL5110 timer that cuts power completely between readings. runs from 3.7V through the pico's VSYS. it reads, sends mqtt, then should tell the TPL5110 it's done (DONE pin high). but it never cuts power, battery dead in 2 days"""),
        ("A", """A few things can keep the TPL5110 from cutting power:

- **DONE pin level**: the TPL5110 needs a rising edge on DONE, and the pin must go high while the Pico is still powered. If you set the pin high but the code panics or waits on wifi first, it never happens. Put a `defmt::info!` or an LED blink right before setting DONE to confirm the code gets there.
- **Pull-down on DONE**: if the RP2040 pin floats during boot, the TPL5110 can see a spurious edge; a 10k pull-down is recommended.
- **Delay resistor**: check the resistor sets the interval you think; a wrong value can make it re-enable power almost immediately, which looks like "never off".

What does your sequence look like after the MQTT publish?"""),
        ("U", """```rust
client.send_message("sapling/moisture", payload, QualityOfService::QoS1, false).await.unwrap();
done.set_high();
loop { Timer::after_secs(60).await; }
```"""),
        ("A", """That looks right, so the code side is probably fine if it reaches `set_high`. With QoS1 the `send_message` waits for the PUBACK; if Home Assistant's broker is slow or the wifi association drops, that `unwrap` panics and DONE is never set. Wrap the publish in `with_timeout(Duration::from_secs(10), ...)` and set DONE whatever the result, so a failed publish still powers down."""),
        ("U", """it was the unwrap panicking after wifi hiccups. fixed with timeout + always done. 🔋"""),
        ("A", """A classic with power-cut designs: every path has to end in DONE. If you want to know how often it fails, count failures in a small RTC-memory... actually the TPL5110 cuts the RP2040 entirely, so nothing survives; you'd have to publish the failure count on the next successful wake from flash."""),
    ]),
    ("life-07", "2025/07/15 18:20", [
        ("U", """Had a good 1:1 with Ana today. She's putting me forward for senior firmware engineer in the September round, and wants me to own the production firmware plan (FUOTA, end-of-line calibration). I need to write a one-page "scope" doc for her. Can you help outline it?"""),
        ("A", """Congratulations - that's a strong signal. A one-page scope doc for production firmware could be:

**Goal**: firmware for hive scale v3 ready for production by <date>, with field updates and calibration in the factory.

**In scope**
1. FUOTA over LoRaWAN on The Things Stack Cloud (fragmentation, multicast, MCUboot swap).
2. End-of-line calibration: scale factor and temperature coefficient per board, stored in NVS.
3. Diagnostics: the daily frame from the pilot, kept.
4. Power: 24-month battery life with measured typical and worst-case figures.

**Out of scope**: new sensors, the Rust rewrite you're not doing :)

**Milestones**, **risks** (FUOTA testing time, supplier delays), and **what you need** (climate chamber time, a second firmware engineer for reviews).

Keep it to one page; the detail can live in linked docs."""),
        ("U", """haha the rust line stays in. thanks"""),
        ("A", """Good luck with the round in September."""),
        ("U", """should I put the battery figures in it or link them"""),
        ("A", """Put the headline figures in (sleep current, typical and worst-case life against the 24-month target) and link the details. A scope doc is read by people who decide, and they look for the numbers first."""),
    ]),
    ("life-08", "2025/07/21 10:15", [
        ("U", """typing with one hand so short messages. sprained my left wrist bouldering on saturday (19 july), fell off a dyno badly. physio said no climbing for 3 weeks and a brace. any tips for coding one handed? using dictation a bit"""),
        ("A", """Sorry to hear that - rest it properly. Ideas for the next weeks:

- **Dictation**: on macOS or Windows the built-in dictation is fine for prose (messages, docs); for code, Talon Voice is the serious option but has a learning curve, probably not worth it for 3 weeks.
- **Shortcuts over typing**: lean on your editor's snippets, multi-cursor and AI completion so you type fewer characters.
- **Sticky Keys**: turn it on so modifier combos (Ctrl+Shift+...) work with one hand.
- **Pick review and design work**: this is a good period for reviewing Daan's PRs, writing the production scope doc, and planning rather than long coding sessions.

And tell Ana, so nobody expects your usual speed."""),
        ("U", """sticky keys is a lifesaver. told ana"""),
        ("A", """Good. Heal well."""),
        ("U", """wrist is swollen still, ice or heat?"""),
        ("A", """In the first days of a sprain with swelling, cold (10-15 minutes at a time, wrapped, not directly on the skin) and elevation are the usual advice; heat is for later, once the swelling is gone. Follow your physio's instructions if they differ, and see a doctor if the pain increases or you lose strength or feeling."""),
    ]),
    ("fw-10", "2025/07/24 14:45", [
        ("U", """zephyr 3.7.1 came out, do we take it? we're on 3.7.0. dictating this so excuse typos"""),
        ("A", """3.7.x are LTS patch releases, so they contain bug and security fixes without API changes; taking them is usually low risk. Let me check the release notes items that touch your stack: 3.7.1 has fixes in the STM32 LPTIM timer driver, in NVS, and in the LoRaWAN subsystem's handling of the link-check answer. The LPTIM fix is relevant to your Stop 2 setup.

Procedure:

```
cd hive-fw
sed -i 's/revision: v3.7.0/revision: v3.7.1/' west.yml
west update
west build -b hivescale_v3 app -p --sysbuild
```

then run the HIL suite, including the PPK2 sleep-current test, before merging."""),
        ("U", """```
tests/hil/test_join.py ....                                        [ 26%]
tests/hil/test_weight.py .....                                     [ 60%]
tests/hil/test_sleep_current.py ..                                 [ 73%]
tests/hil/test_downlink_config.py ....                             [100%]
============================== 15 passed in 412.83s ==============================
```

all green. merging"""),
        ("A", """Green including sleep current, so 3.7.1 is safe to take. Tag it as 3.1.3 if you want it in the next batch of boards for the Utrecht site."""),
        ("U", """tag pushed, 3.1.3"""),
        ("A", """Then the Utrecht batch can go out on 3.1.3. If you keep a table of which firmware runs on which node, add it there, since the Wageningen nodes stay on 3.1.1 until someone visits."""),
    ]),
    ("life-09", "2025/08/04 09:30", [
        ("U", """Update on the wrist: physio says it's a worse sprain than she thought, so it's 6 weeks without climbing now, not 3. Annoying. Anyway, I'm off on holiday from 9 to 23 August, hiking in the Lofoten in Norway (with the brace, easy trails only). Need to write an out-of-office handover for Daan. Can you give me a template?"""),
        ("A", """Sorry about the wrist. Here's a handover template that works for a two-week absence:

**Out of office: 9-23 August**

- **Backup**: Daan for firmware and the pilot; Ana for decisions.
- **Running things**: the pilot (52 nodes, two sites), what's normal (join count 1, daily diagnostic frame), what's not (a node silent for more than 6 hours).
- **How-tos**: where the runbook lives: reflashing a node, resetting DevNonces in the console, restarting the HIL runner on the Pi.
- **Open work**: the DR fallback PR (review only, don't merge before I'm back), the production scope doc (Ana has it).
- **Don't**: change the TTS Cloud application settings or the payload formatter while I'm away.
- **Contact**: only by phone for a pilot-wide outage.

Adjust the lists to what you actually have open."""),
        ("U", """the HIL runner part, I don't have that written anywhere. daan has never touched the pi"""),
        ("A", """Then that's the most valuable part of the handover. A short runbook with the three commands he'd need (`sudo systemctl restart actions.runner.*`, how to check the J-Link and PPK2 are visible with `lsusb`, and how to re-run the failed job) will save him a stressful hour."""),
        ("U", """what should I pack for lofoten in august? hiking, 2 weeks"""),
        ("A", """August in the Lofoten is usually 12-18 °C with rain on many days and strong wind on ridges, so layers: a good rain jacket and rain trousers, a fleece or light down jacket, quick-dry hiking clothes, waterproof boots with grip (rock gets slippery), and a head net for midges on calm days. With the wrist, trekking poles help on descents, and stick to trails without scrambling sections."""),
    ]),
    ("ci-06", "2025/08/06 15:00", [
        ("U", """writing the HIL runner runbook for Daan. can you check I got the commands right?

```
# restart the runner
sudo systemctl restart actions.runner.hivescale-hive-fw.hil-pi5.service
# check devices
lsusb | grep -E 'SEGGER|Nordic|STMicro'
ls -l /dev/serial/by-id/
# logs
journalctl -u actions.runner.hivescale-hive-fw.hil-pi5.service -n 200
```"""),
        ("A", """They look right. Two additions:

- After a restart, confirm the runner is "Idle" in the repo settings (Actions - Runners); `systemctl status` only tells you the process is up, not that it registered.
- If a board stops showing in `/dev/serial/by-id/`, power-cycle the USB hub rather than the Pi: `uhubctl -l 1-1 -a cycle` if the hub supports per-port power, which the one on the rig does if it's the same Pi 5 setup as before.

Also write down what to do if the PPK2 shows up but the sleep-current test fails: the PPK2 sometimes needs its own replug after a hub power cycle."""),
        ("U", """ok did it. runbook is in docs/hil-runbook.md. Last thing before holiday"""),
        ("A", """Enjoy the Lofoten, and the easy trails!"""),
        ("U", """does uhubctl need to be installed separately?"""),
        ("A", """Yes: `sudo apt install uhubctl` on Raspberry Pi OS. Run `sudo uhubctl` once to see which hubs support per-port power switching, and put the exact `-l` location for your rig in the runbook, since it depends on which USB port the hub is in."""),
    ]),
    ("power-06", "2025/08/27 10:00", [
        ("U", """back from holiday, and the battery report is due friday. 3 months of pilot data. loaded battery voltage (min during TX) median per site:

```
site        2025-06-02  2025-07-01  2025-08-01  2025-08-26
wageningen      3.12        3.11        3.10        3.10
utrecht         3.14        3.13        3.13        3.12
```

how do I turn this into a lifetime estimate? lithium curves are so flat"""),
        ("A", """You're right that voltage alone won't give a good estimate on L91 cells: they sit around 3.1 V loaded (two in series) for most of their life and drop only near the end. A better way is coulomb counting from what you know:

1. Measured sleep current: 3.2 µA.
2. Uplinks per day and their SF distribution from the network server (ADR moved most nodes to SF7-SF8).
3. Per-uplink charge at each SF from PPK2 traces on the bench.

That gives a charge per day per node; compare it to 3000 mAh derated for cold (say 2400 mAh). Use the voltage trend only as a sanity check: a drop of 20 mV in three months with no knee is consistent with a long life.

With your figures I'd expect the estimate to land well above 24 months for typical nodes; present the worst-case node too (the one still at SF10)."""),
        ("U", """makes sense. doing it per node from the TTS data. ana will be happy if typical is >36 months"""),
        ("A", """If it is, say so plainly but keep the worst case on the same slide, since the 24-month promise to the customer has to hold for the worst node, not the median."""),
        ("U", """per-uplink charge at SF7 from the bench: 2.9 mAs, SF8: 4.8, SF9: 8.1, SF10: 15.0"""),
        ("A", """With those and 3.2 µA sleep, a typical node at SF7 with 48 uplinks a day uses about 3.2 µA x 24 h = 77 µAh for sleep plus 48 x 2.9 mAs = 139 mAs = 39 µAh for uplinks, so about 116 µAh per day plus measurement. Even with generous overheads for the daily diagnostic frame and cold derating, that's many years for typical nodes, and the SF10 worst case (about 200 µAh for uplinks per day) still clears 24 months by a wide margin."""),
    ]),
]

# (question_id, type, question, answer, {answering session: indices of its answering turns})
QUESTIONS: list[tuple[str, str, str, str, dict[str, list[int]]]] = [
    ("heldout4-ssu-01", "single-session-user",
     "What sleep current did I measure on the first Zephyr build, before any fixes?",
     "38 µA (the old FreeRTOS firmware drew about 6 µA)", {"power-01": [0]}),
    ("heldout4-ssu-02", "single-session-user",
     "What is my niece called, and when was she born?", "Lotte, born on 9 May 2025", {"life-03": [0]}),
    ("heldout4-ssu-03", "single-session-user",
     "Which board did I build my Rust course project on, and what is the project called?",
     "A Raspberry Pi Pico W (RP2040); the project is called sapling", {"rust-01": [0]}),
    ("heldout4-ssu-04", "single-session-user",
     "Which checks does branch protection require since Jenkins was turned off?",
     "firmware / build and firmware / hil", {"ci-05": [0]}),
    ("heldout4-ssa-01", "single-session-assistant",
     "Which Kconfig option did you suggest so that the DevNonce survives a reflash?",
     "CONFIG_LORAWAN_NVM_SETTINGS, with settings, NVS and a storage partition", {"lora-02": [1]}),
    ("heldout4-ssa-02", "single-session-assistant",
     "What did you say caused the extra sleep current that was left after the UART was turned off?",
     "The HX711's DOUT pin (PB3) floating while the amplifier is powered down; a pull-up fixed it",
     {"power-02": [1]}),
    ("heldout4-ssa-03", "single-session-assistant",
     "How did you suggest finding the commit that broke the HIL weight test?",
     "git bisect run with a script that builds, flashes and runs the failing test (exit 125 to skip)",
     {"ci-04": [1]}),
    ("heldout4-ms-01", "multi-session",
     "How many hives were in the field pilot in total, across both sites?",
     "52: 40 in Wageningen and 12 at the Utrecht city apiary", {"fw-08": [0], "lora-05": [0]}),
    ("heldout4-ms-02", "multi-session",
     "What ran our firmware CI before GitHub Actions, and what machine runs the HIL jobs now?",
     "Jenkins on a 2014 Mac mini; now a self-hosted runner on a Raspberry Pi 5 on the HIL rig",
     {"ci-01": [0], "ci-02": [0]}),
    ("heldout4-ms-03", "multi-session",
     "How far did the sleep current come down from the first Zephyr measurement to the latest one?",
     "From 38 µA to 3.2 µA", {"power-01": [0], "power-05": [0]}),
    ("heldout4-ms-04", "multi-session",
     "What was my evening course called, and what did I demo at its end?",
     "Embedded Rust with Embassy; sapling, sending soil moisture over MQTT to Home Assistant with deep sleep",
     {"rust-01": [0], "rust-04": [0]}),
    ("heldout4-ms-05", "multi-session",
     "Which two firmware fixes came out of the pilot's radio problems, and in which versions?",
     "A join data-rate fallback (3.1.1) and enabling ADR after the join (3.1.2)",
     {"fw-08": [4], "lora-05": [3, 4]}),
    ("heldout4-ku-01", "knowledge-update", "Who is my manager?",
     "Ana Kovač (since April 2025; before that Pieter)", {"life-01": [0], "life-04": [0]}),
    ("heldout4-ku-02", "knowledge-update", "Which city do I live in?",
     "Eindhoven (moved from Utrecht on 14 June 2025)", {"life-01": [0], "life-05": [0], "life-06": [0]}),
    ("heldout4-ku-03", "knowledge-update", "What is the battery life target for the hive scale?",
     "24 months (it was 18 months until May 2025)", {"power-01": [0], "power-04": [0]}),
    ("heldout4-ku-04", "knowledge-update", "When did the field pilot start?",
     "2 June 2025 (it was planned for 12 May)", {"lora-03": [0], "fw-06": [0]}),
    ("heldout4-ku-05", "knowledge-update", "Which LoRaWAN network server is our application on?",
     "The Things Stack Cloud, the paid plan (it was on the TTN community network)",
     {"lora-01": [0], "lora-06": [0]}),
    ("heldout4-ku-06", "knowledge-update", "How long am I off climbing after the wrist sprain?",
     "6 weeks (the physio first said 3)", {"life-08": [0], "life-09": [0]}),
    ("heldout4-ku-07", "knowledge-update", "Which Zephyr release is the hive firmware on?",
     "3.7.1 (it was 3.7.0)", {"fw-01": [1], "fw-10": [1, 2]}),
    ("heldout4-ku-08", "knowledge-update", "How many bytes is the hive scale's uplink payload?",
     "7 bytes, a custom packed format (it was 11 bytes of Cayenne LPP)", {"lora-01": [0], "lora-04": [0]}),
    ("heldout4-tr-01", "temporal-reasoning", "How many days after the pilot started did I move to Eindhoven?",
     "12 days (2 June to 14 June 2025)", {"fw-08": [0], "life-06": [0]}),
    ("heldout4-tr-02", "temporal-reasoning",
     "Which came first: Ana becoming my manager or my niece being born?",
     "Ana becoming my manager (22 April 2025; Lotte was born on 9 May)", {"life-04": [0], "life-03": [0]}),
    ("heldout4-tr-03", "temporal-reasoning",
     "How many weeks were there between spraining my wrist and the start of my Norway holiday?",
     "3 weeks (19 July to 9 August 2025)", {"life-08": [0], "life-09": [0]}),
    ("heldout4-tr-04", "temporal-reasoning",
     "How long did the move off Jenkins take, from the GitHub Actions go-ahead to turning Jenkins off?",
     "37 days, about five weeks (11 February to 20 March 2025)", {"ci-02": [0], "ci-05": [0]}),
    ("heldout4-tr-05", "temporal-reasoning",
     "How long after starting the Zephyr port did the field pilot begin?",
     "About four and a half months (20 January to 2 June 2025, 133 days)", {"fw-01": [0], "fw-08": [0]}),
    ("heldout4-tr-06", "temporal-reasoning",
     "Did we switch the scales to the ADS1232 before or after the pilot started, and by how many days?",
     "Before, by 13 days (20 May against 2 June 2025)", {"fw-07": [0], "fw-08": [0]}),
]

QUESTION_DATE = "2025/09/01 (Mon) 10:00"
DISTRACTORS = 4


def dated(stamp: str) -> str:
    """'2025/01/20 09:12' as LongMemEval writes it: '2025/01/20 (Mon) 09:12'."""
    moment = datetime.strptime(stamp, "%Y/%m/%d %H:%M")
    return moment.strftime("%Y/%m/%d (%a) %H:%M")


def session_turns(turns: list[tuple[str, str]], answering: list[int]) -> list[dict]:
    """The turns as messages, has_answer on the question's answering turns only."""
    messages = []
    for index, (role, text) in enumerate(turns):
        message = {"role": "user" if role.startswith("U") else "assistant", "content": text}
        if index in answering:
            message["has_answer"] = True
        messages.append(message)
    return messages


def haystacks() -> dict[str, list[str]]:
    """Each question's sessions: its answering ones and four others, every session in some haystack."""
    order = [sid for sid, _, _ in SESSIONS]
    uncovered = [sid for sid in order if not any(sid in q[4] for q in QUESTIONS)]
    rotation = 0
    chosen = {}
    for qid, _, _, _, answers in QUESTIONS:
        others: list[str] = []
        while uncovered and len(others) < DISTRACTORS:
            others.append(uncovered.pop(0))
        while len(others) < DISTRACTORS:
            candidate = order[rotation % len(order)]
            rotation += 7  # a stride coprime with the session count spreads the fill
            if candidate not in answers and candidate not in others:
                others.append(candidate)
        chosen[qid] = sorted([*answers, *others], key=order.index)
    return chosen


def build() -> list[dict]:
    sessions = {sid: (stamp, turns) for sid, stamp, turns in SESSIONS}
    for sid, _, turns in SESSIONS:
        assert all(role in ("U", "A") for role, _ in turns), sid
    chosen = haystacks()
    questions = []
    for qid, kind, question, answer, answers in QUESTIONS:
        ids = chosen[qid]
        questions.append({
            "question_id": qid,
            "question_type": kind,
            "question": question,
            "answer": answer,
            "question_date": QUESTION_DATE,
            "haystack_session_ids": ids,
            "haystack_dates": [dated(sessions[sid][0]) for sid in ids],
            "haystack_sessions": [session_turns(sessions[sid][1], answers.get(sid, [])) for sid in ids],
            "answer_session_ids": list(answers),
        })
    return questions


if __name__ == "__main__":
    Path(sys.argv[1]).write_text(json.dumps(build(), ensure_ascii=False, indent=1) + "\n")
