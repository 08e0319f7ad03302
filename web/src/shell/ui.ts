// Shell UI state: the guard's loaded flag, the mobile panel and map editing mode.
import { create } from 'zustand';

export interface MapEditing {
  /** Concluir (finish) button. */
  onFinish(): void;
  onCancel(): void;
}

export interface UiState {
  /** SPEC §2: false while a navigation is being checked, true afterwards. */
  loaded: boolean;
  /** Mobile: the panel is minimised to its header. */
  panelMinimised: boolean;
  /** Mobile: the side menu is open. */
  menuOpen: boolean;
  /** Set by a feature while the user draws on the map (geofence editing): the panel hides. */
  mapEditing: MapEditing | null;
  setLoaded(loaded: boolean): void;
  setPanelMinimised(v: boolean): void;
  setMenuOpen(v: boolean): void;
  setMapEditing(editing: MapEditing | null): void;
}

export const useUi = create<UiState>((set) => ({
  loaded: false,
  panelMinimised: false,
  menuOpen: false,
  mapEditing: null,
  setLoaded: (loaded) => set({ loaded }),
  setPanelMinimised: (panelMinimised) => set({ panelMinimised }),
  setMenuOpen: (menuOpen) => set({ menuOpen }),
  setMapEditing: (mapEditing) => set({ mapEditing }),
}));
