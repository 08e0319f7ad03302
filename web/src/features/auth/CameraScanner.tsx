// The QR driver's camera preview: the browser's BarcodeDetector reading the first QR code in view.
import { useEffect, useRef } from 'react';

/** Minimal typing of the browser's BarcodeDetector (Chromium on Android, ChromeOS, macOS). */
interface Detector {
  detect(source: HTMLVideoElement): Promise<Array<{ rawValue: string }>>;
}
type DetectorCtor = new (options: { formats: string[] }) => Detector;
export const detectorCtor = (): DetectorCtor | null =>
  (globalThis as { BarcodeDetector?: DetectorCtor }).BarcodeDetector ?? null;

/** The camera preview that reports the first QR code it reads. */
export function CameraScanner({ onCode, onError }: { onCode(code: string): void; onError(): void }) {
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    let stream: MediaStream | null = null;
    let stopped = false;
    const Ctor = detectorCtor();
    if (!Ctor || !navigator.mediaDevices?.getUserMedia) {
      onError();
      return;
    }
    const detector = new Ctor({ formats: ['qr_code'] });
    const tick = async () => {
      if (stopped || !video.current) return;
      try {
        const found = await detector.detect(video.current);
        if (found[0]?.rawValue) return onCode(found[0].rawValue);
      } catch {
        /* frame not ready */
      }
      setTimeout(() => void tick(), 250);
    };
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: 'environment' } })
      .then((s) => {
        stream = s;
        if (stopped || !video.current) return;
        video.current.srcObject = s;
        void video.current.play().then(tick);
      })
      .catch(onError);
    return () => {
      stopped = true;
      stream?.getTracks().forEach((tr) => tr.stop());
    };
  }, [onCode, onError]);
  return <video ref={video} muted playsInline style={{ width: '100%', borderRadius: 8 }} />;
}
