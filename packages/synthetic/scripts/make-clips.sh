#!/usr/bin/env bash
# Makes the synthetic participants' pre-encoded media once (the clips are committed): three VP8 loops with three
# temporal layers each, for the simulcast layers l (320x180), m (640x360) and h (1280x720), and one Opus loop.
# Needs Debian's ffmpeg (libvpx, libopus): apt-get install -y --no-install-recommends ffmpeg
#
# 8 s at 30 frames/s (240 frames); `make-clips.sh s` remakes only s. Key frames are forced every 60 frames, a multiple of the temporal pattern's
# period 4: libvpx restarts the pattern only at a forced key frame, so TID = [0,2,1,2][(n - last key) % 4]
# (see src/clips.ts); s, the screen share, is 5 frames/s with a key frame every 20. The bit rates are the web app's default simulcast caps (150/450/1200 kbit/s) a little lower,
# to keep the committed files small.
set -euo pipefail
out="$(cd "$(dirname "$0")/.." && pwd)/clips"
mkdir -p "$out"
vp8() { # name size kbit/s [fps] [key frame every n frames]
  local l0=$(($3 / 4)) l1=$(($3 / 2)) fps=${4:-30} keys=${5:-60}
  ffmpeg -hide_banner -loglevel error -y -f lavfi -i "testsrc2=s=$2:r=$fps" -t 8 \
    -c:v libvpx -deadline realtime -cpu-used 8 -lag-in-frames 0 -error-resilient 1 -auto-alt-ref 0 \
    -b:v "${3}k" -minrate "${3}k" -maxrate "${3}k" -g 9999 -force_key_frames "expr:eq(mod(n,$keys),0)" \
    -ts-parameters "ts_number_layers=3:ts_target_bitrate=$l0,$l1,$3:ts_rate_decimator=4,2,1:ts_periodicity=4:ts_layer_id=0,2,1,2:ts_layering_mode=3" \
    "$out/$1.ivf"
}
# Only the clips named on the command line, or all of them.
want() { [ ${#ARGS[@]} -eq 0 ] || [[ " ${ARGS[*]} " == *" $1 "* ]]; }
ARGS=("$@")
want l && vp8 l 320x180 120
want m && vp8 m 640x360 360
want h && vp8 h 1280x720 900
# A screen share: full size, few frames (the web app sends a share at SCREEN_SHARE_FPS, 5 by default), and a low
# bit rate, as a mostly still screen costs.
want s && vp8 s 1280x720 150 5 20
# A voice-like tone: 20 ms Opus frames (one per packet, as browsers send), 32 kbit/s.
want voice && ffmpeg -hide_banner -loglevel error -y -f lavfi -i "sine=frequency=330:sample_rate=48000" -t 8 -ac 1 \
  -c:a libopus -b:a 32k -frame_duration 20 -application voip "$out/voice.opus"
ls -l "$out"
