/**
 * The addresses the browser's WebRTC stack would gather host candidates on now, read from a throwaway peer
 * connection that never connects (no ICE servers, no remote description). After a change of network Chromium
 * learns its new address only a few seconds later (measured: an ICE restart 1.8 s after the move still gathered
 * on the old address); this tells when it has, so the restart that follows finds the new path at once.
 * Without camera or microphone permission Chromium hides the addresses behind mDNS names, which change with the
 * address just the same.
 */
export async function localAddresses(timeoutMs = 500): Promise<string[]> {
  const pc = new RTCPeerConnection({ iceServers: [] });
  try {
    const found = new Set<string>();
    const done = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      pc.onicecandidate = (e) => {
        if (e.candidate?.address) found.add(e.candidate.address);
        if (!e.candidate) {
          clearTimeout(timer);
          resolve();
        }
      };
    });
    pc.createDataChannel('addresses');
    await pc.setLocalDescription(await pc.createOffer());
    await done;
    return [...found].sort();
  } finally {
    pc.close();
  }
}
