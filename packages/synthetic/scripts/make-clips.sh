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
vp8() { # name size kbit/s [fps] [key frame every n frames] [a filter graph over a white page ([0]) and a pointer ([1]), instead of testsrc2]
  local l0=$(($3 / 4)) l1=$(($3 / 2)) fps=${4:-30} keys=${5:-60}
  local source=(-f lavfi -i "testsrc2=s=$2:r=$fps")
  [ -n "${6:-}" ] && source=(-f lavfi -i "color=c=white:s=$2:r=$fps" -f lavfi -i "color=c=red:s=16x16:r=$fps" -filter_complex "$6")
  ffmpeg -hide_banner -loglevel error -y "${source[@]}" -t 8 \
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
# A screen share: a slide (a title bar, lines of text as bars, a picture) with a pointer moving over it, full size,
# few frames (the adaptive-quality test shares at SCREEN_SHARE_FPS=5). A still screen costs what a shared
# presentation does (~80 kbit/s here); the moving test pattern it replaced cost 180 kbit/s, a video's worth, and with
# it the share, the interpreter and three voices could not fit a 500 kbit/s link at any layer.
slide="drawbox=x=80:y=60:w=1120:h=90:color=0x1f3a68:t=fill"
for i in 0 1 2 3 4 5 6; do slide="$slide,drawbox=x=120:y=$((220 + i * 60)):w=$((900 - (i * 97) % 400)):h=22:color=0x555555:t=fill"; done
slide="[0]$slide,drawbox=x=900:y=240:w=260:h=300:color=0x3f8f5f:t=fill[page];[page][1]overlay=x='100+mod(t*150\,1000)':y='300+mod(t*40\,300)'"
want s && vp8 s 1280x720 150 5 20 "$slide"
# A voice: a tone for 2.5 s, then silence to the loop's end (a person talks part of the time), 20 ms Opus frames
# (one per packet, as browsers send), 32 kbit/s while it sounds. The silence encodes to 3-byte frames, which the
# publisher sends as the web app's DTX does (src/opus-dtx.ts).
want voice && ffmpeg -hide_banner -loglevel error -y -f lavfi -i "sine=frequency=330:sample_rate=48000" -t 8 -ac 1 \
  -af "volume='if(lt(t,2.5),1,0)':eval=frame" -c:a libopus -b:a 32k -frame_duration 20 -application voip "$out/voice.opus"
ls -l "$out"
