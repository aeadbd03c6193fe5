/** Small inline icons; decorative (the buttons carry the text). */
const Svg = ({ children }: { children: React.ReactNode }) => (
  <svg className="icon" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
    {children}
  </svg>
);

export const MicIcon = ({ off }: { off?: boolean }) => (
  <Svg>
    <path fill="currentColor" d="M12 14a3 3 0 0 0 3-3V5a3 3 0 0 0-6 0v6a3 3 0 0 0 3 3Zm5-3a5 5 0 0 1-10 0H5a7 7 0 0 0 6 6.92V21h2v-3.08A7 7 0 0 0 19 11Z" />
    {off && <path stroke="currentColor" strokeWidth="2" d="M4 4l16 16" />}
  </Svg>
);

export const CameraIcon = ({ off }: { off?: boolean }) => (
  <Svg>
    <path fill="currentColor" d="M17 10.5V7a1 1 0 0 0-1-1H4a1 1 0 0 0-1 1v10a1 1 0 0 0 1 1h12a1 1 0 0 0 1-1v-3.5l4 4v-11Z" />
    {off && <path stroke="currentColor" strokeWidth="2" d="M3 3l18 18" />}
  </Svg>
);

export const ChatIcon = () => (
  <Svg>
    <path fill="currentColor" d="M4 4h16v12H7l-3 3Z" />
  </Svg>
);

export const PeopleIcon = () => (
  <Svg>
    <path fill="currentColor" d="M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8Zm7 0a3 3 0 1 0 0-6 3 3 0 0 0 0 6ZM1 20c0-3.3 3.6-6 8-6s8 2.7 8 6Zm16.5 0c0-2-1-3.8-2.6-5 3.6.1 7.1 2 7.1 5Z" />
  </Svg>
);

export const HangUpIcon = () => (
  <Svg>
    <path fill="currentColor" d="M12 9c-3.2 0-6.2.9-8.7 2.6a1.5 1.5 0 0 0-.3 2.2l1.6 1.9c.5.6 1.3.7 2 .3l2-1.2a1.5 1.5 0 0 0 .7-1.3v-1.6a12 12 0 0 1 5.4 0v1.6c0 .5.3 1 .7 1.3l2 1.2c.7.4 1.5.3 2-.3l1.6-1.9a1.5 1.5 0 0 0-.3-2.2A15.5 15.5 0 0 0 12 9Z" />
  </Svg>
);

export const ExpandIcon = ({ collapse }: { collapse?: boolean }) => (
  <Svg>
    <path fill="none" stroke="currentColor" strokeWidth="2" d={collapse ? 'M9 4v5H4M15 4v5h5M9 20v-5H4M15 20v-5h5' : 'M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5'} />
  </Svg>
);
