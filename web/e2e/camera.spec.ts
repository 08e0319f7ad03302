// Camera view of the device detail (issue #11, SPEC §2 "device detail with camera view", §8 video messages): a
// device whose video address answers shows it; one whose address fails is tried three times, then "video not
// available after several attempts" with a retry button.
import { accounts, expect, test } from './fixtures.ts';
import { createDevice, tag } from './map-helpers.ts';

test('a working camera is shown; a broken one gives up after three tries with the SPEC message', async ({
  page,
  loginAs,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await loginAs(accounts.admin.email, accounts.admin.password);
  const t = tag();
  const ok = await createDevice(page.request, {
    name: `Câmera ${t}`,
    uniqueId: `cam-ok-${t}`,
    attributes: { cameraUrl: `${baseURL}/map-icons/car.png` },
  });
  await page.goto(`/devices/${ok.id}`);
  const view = page.getByTestId('camera-view');
  await expect(view.getByRole('img', { name: `Câmera de Câmera ${t}` })).toBeVisible();
  await expect(view.getByTestId('camera-unavailable')).toHaveCount(0);

  const broken = await createDevice(page.request, {
    name: `Sem vídeo ${t}`,
    uniqueId: `cam-bad-${t}`,
    attributes: { videoUrl: 'http://127.0.0.1:9/no-such-camera/live.mp4' },
  });
  const tries: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/no-such-camera/')) tries.push(new URL(r.url()).search);
  });
  await page.goto(`/devices/${broken.id}`);
  // Each try ends on the media error or, at the latest, after its 15 s limit: up to 3 × 15 s.
  await expect(page.getByTestId('camera-unavailable')).toContainText(
    'Vídeo não disponível após várias tentativas',
    { timeout: 60_000 },
  );
  expect(new Set(tries)).toEqual(new Set(['', '?_try=2', '?_try=3']));
  await page.getByTestId('camera-retry').click();
  await expect(page.getByTestId('camera-view')).toHaveAttribute('data-attempt', /[1-4]/);
});

test('a device without a camera shows no camera view', async ({ page, loginAs }) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  const t = tag();
  const d = await createDevice(page.request, { name: `Sem câmera ${t}`, uniqueId: `cam-none-${t}` });
  await page.goto(`/devices/${d.id}`);
  await expect(page.getByTestId('device-detail')).toBeVisible();
  await expect(page.getByTestId('camera-view')).toHaveCount(0);
});
