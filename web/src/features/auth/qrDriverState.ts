// What GET /{ns}/qr-driver answers: the driver, the vehicle they are on and the vehicles they may take.
export interface QrVehicle {
  id: number;
  name: string;
  plate: string | null;
  qrEnabled: boolean;
  takenByOther: boolean;
}

export interface QrState {
  enabled: boolean;
  /** Server setting "lock and unlock buttons". */
  lockButtons: boolean;
  driver: { id: number; name: string; uniqueId: string; passwordRequired: boolean } | null;
  deviceId: number | null;
  devices: QrVehicle[];
}

export const STATE_KEY = ['qr-driver'] as const;
