import { createContext, type ReactNode } from 'react';
import type { StreamTile } from '../model/call-model.ts';

/**
 * Per-tile tools (blur toggle, signal bar, admin section) are decided by the page, which knows the session;
 * tiles are rendered both in the main grid and among the minis, so the page hands them down by context.
 */
export const TileExtrasContext = createContext<((tile: StreamTile) => ReactNode) | null>(null);
