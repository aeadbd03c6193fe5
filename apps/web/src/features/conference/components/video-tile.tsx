import { memo, useContext, useEffect, useRef } from 'react';
import { useTexts } from '../../../i18n/use-texts.ts';
import { initials } from '../model/layout.ts';
import { TILE_TEXTS } from '../model/texts.ts';
import { ExpandIcon, MicIcon } from './icons.tsx';
import { showsTheSame, TileActionsContext, TileTools, type TileProps } from './tile-extras.tsx';

/**
 * One stream: video (own muted), initials poster when video is off, name, microphone state, maximise/minimise, and
 * the tools it carries. Rendered again only when what it shows has changed (the page makes new tile objects on every
 * change of the call).
 */
export const VideoTile = memo(function VideoTile({ tile, focused, mini, extras }: TileProps) {
  // Its texts are read in the screen's language: a language change renders it again.
  useTexts();
  const video = useRef<HTMLVideoElement>(null);
  const actions = useContext(TileActionsContext);
  useEffect(() => {
    const el = video.current;
    if (!el) return;
    if (el.srcObject !== tile.stream) el.srcObject = tile.stream;
    if (tile.stream) el.play().catch(() => {});
  }, [tile.stream]);
  const name = tile.videoType === 'screen' ? TILE_TEXTS.sharesScreen(tile.displayName) : tile.displayName;
  const showVideo = (tile.hasVideo || tile.videoType === 'screen') && !tile.videoOffForBandwidth;
  return (
    <figure
      className={`tile${mini ? ' tile--mini' : ''}${tile.isOwn ? ' tile--own' : ''}`}
      data-stream-id={tile.streamId}
      data-video-type={tile.videoType}
      data-has-video={showVideo}
      data-video-off={tile.videoOffForBandwidth ? 'bandwidth' : undefined}
    >
      <video ref={video} autoPlay playsInline muted={tile.isOwn} className={showVideo ? '' : 'tile__video--hidden'} />
      {!showVideo && (
        <div className="tile__poster" aria-hidden="true">
          {initials(tile.displayName)}
        </div>
      )}
      {tile.videoOffForBandwidth && (
        <p className="tile__notice" role="status">
          {TILE_TEXTS.videoOffForBandwidth}
        </p>
      )}
      <figcaption className="tile__caption">
        <span className="tile__name" title={name}>
          {name}
        </span>
        {tile.videoType === 'camera' && (
          <span className="tile__mic" role="img" aria-label={tile.hasAudio ? TILE_TEXTS.micLive : TILE_TEXTS.micMuted}>
            <MicIcon off={!tile.hasAudio} />
          </span>
        )}
      </figcaption>
      <button
        type="button"
        className="tile__expand"
        aria-label={`${focused ? TILE_TEXTS.minimise : TILE_TEXTS.maximise} ${name}`}
        onClick={(e) => {
          e.stopPropagation();
          if (focused) actions?.minimise();
          else actions?.maximise(tile.streamId);
        }}
        onDoubleClick={(e) => e.stopPropagation()}
      >
        <ExpandIcon collapse={focused} />
      </button>
      <div className="tile__tools">
        <TileTools tile={tile} extras={extras} />
      </div>
    </figure>
  );
}, showsTheSame);
