import { describe, expect, it } from 'vitest';
import { cameraAttemptUrl, cameraSource, VIDEO_LOAD_TIMEOUT_MS, VIDEO_MAX_ATTEMPTS } from '../src/camera.ts';

describe('camera view', () => {
  it('finds the video address in the attributes; stills and MJPEG are images', () => {
    expect(cameraSource({}, 'rastro')).toBeNull();
    expect(cameraSource({ videoUrl: 'javascript:alert(1)' }, 'rastro')).toBeNull();
    expect(cameraSource({ videoUrl: 'https://cam.example/live.mp4' }, 'rastro')).toEqual({
      url: 'https://cam.example/live.mp4',
      kind: 'video',
    });
    expect(cameraSource({ cameraUrl: 'http://10.0.0.2/snapshot.jpg?x=1' }, 'rastro')?.kind).toBe('image');
    expect(cameraSource({ camera: 'http://10.0.0.2/video.mjpg' }, 'rastro')?.kind).toBe('image');
    expect(
      cameraSource({ videoUrl: 'https://a/plain.mp4', 'rastro.videoUrl': 'https://b/ns.webm' }, 'rastro')
        ?.url,
    ).toBe('https://b/ns.webm');
  });

  it('retries three times, each with its own address, and times a try out after 15 s', () => {
    expect(VIDEO_MAX_ATTEMPTS).toBe(3);
    expect(VIDEO_LOAD_TIMEOUT_MS).toBe(15_000);
    expect(cameraAttemptUrl('https://a/v.mp4', 1)).toBe('https://a/v.mp4');
    expect(cameraAttemptUrl('https://a/v.mp4', 2)).toBe('https://a/v.mp4?_try=2');
    expect(cameraAttemptUrl('https://a/v.mp4?k=1', 3)).toBe('https://a/v.mp4?k=1&_try=3');
  });
});
