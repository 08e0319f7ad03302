// Drawing a shape on the shared live map from any feature (geofence editing today). The state machine is the
// domain's (geofenceDraw.ts); this store holds the current drawing, and the map feature binds it to MapLibre
// (mapDrawLayer.ts: layers, clicks, drags, Escape). A feature calls startMapDraw(), shows its own Concluir /
// Cancel buttons (useUi().setMapEditing), then finishMapDraw() to take the area or stopMapDraw() to discard it.
import {
  drawFromArea,
  drawReducer,
  drawResult,
  startDraw,
  type DrawEvent,
  type DrawState,
  type GeoArea,
  type GeofenceShape,
} from '@rastro/domain';
import { create } from 'zustand';

export interface MapDrawOptions {
  shape: GeofenceShape;
  /** An existing area to edit (its shape wins over `shape`); without it the user draws from scratch. */
  initial?: GeoArea | null;
  /** Colour of the drawn shape (#rrggbb). */
  color?: string;
  /** Escape pressed while drawing. */
  onEscape?: () => void;
  /** A short instruction shown over the map while drawing. */
  hint?: string;
}

export interface MapDrawStore {
  /** The drawing in progress, null when none. */
  draw: DrawState | null;
  color: string;
  onEscape: (() => void) | null;
  hint: string | null;
}

export const MAP_DRAW_DEFAULT_COLOR = '#1976d2';

export const useMapDraw = create<MapDrawStore>(() => ({
  draw: null,
  color: MAP_DRAW_DEFAULT_COLOR,
  onEscape: null,
  hint: null,
}));

/** Starts drawing on the map (replacing any drawing in progress). */
export function startMapDraw(opts: MapDrawOptions): void {
  useMapDraw.setState({
    draw: opts.initial ? drawFromArea(opts.initial) : startDraw(opts.shape),
    color: opts.color || MAP_DRAW_DEFAULT_COLOR,
    onEscape: opts.onEscape ?? null,
    hint: opts.hint ?? null,
  });
}

/** Feeds one pointer event to the drawing (the map binding calls this). */
export function dispatchMapDraw(ev: DrawEvent): void {
  const { draw } = useMapDraw.getState();
  if (!draw) return;
  const next = drawReducer(draw, ev);
  if (next !== draw) useMapDraw.setState({ draw: next });
}

/**
 * Concluir: closes a polygon or line that has enough vertices and returns the finished area (rounded), ending
 * the drawing. Returns null, and keeps drawing, while the shape is not complete.
 */
export function finishMapDraw(): GeoArea | null {
  dispatchMapDraw({ type: 'finish' });
  const { draw } = useMapDraw.getState();
  const area = draw ? drawResult(draw) : null;
  if (area) stopMapDraw();
  return area;
}

/** Ends the drawing without a result (Cancel). */
export function stopMapDraw(): void {
  useMapDraw.setState({ draw: null, onEscape: null, hint: null });
}

export function isMapDrawing(): boolean {
  return useMapDraw.getState().draw !== null;
}
