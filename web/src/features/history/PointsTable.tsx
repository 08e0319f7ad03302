// The route's points as a virtualised table (100,000 rows and more: only the visible rows are in the DOM), kept
// in step with the map: a click seeks playback there, the current row is highlighted and scrolled into view.
import { Box, Text } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { formatSpeed, type RoutePoint, type SpeedUnit } from '@rastro/domain';
import { memo, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

const ROW = 30;
const HEIGHT = 300;
/** The header's and the rows' columns: number, time, speed. */
const GRID = {
  display: 'grid',
  gridTemplateColumns: '3.5rem 1fr 5rem',
  gap: 6,
  fontSize: 12,
  borderBottom: '1px solid var(--mantine-color-default-border)',
} as const;

export const PointsTable = memo(function PointsTable({
  points,
  active,
  follow,
  onPick,
  unit,
  locale,
  formatTime,
}: {
  points: readonly RoutePoint[];
  active: number;
  /** scroll the active row into view (while playing) */
  follow: boolean;
  onPick: (index: number) => void;
  unit: SpeedUnit;
  locale: string;
  formatTime: (ms: number) => string;
}) {
  const { t } = useTranslation('history');
  const parent = useRef<HTMLDivElement>(null);
  const v = useVirtualizer({
    count: points.length,
    getScrollElement: () => parent.current,
    estimateSize: () => ROW,
    overscan: 12,
  });

  useEffect(() => {
    if (follow && active >= 0) v.scrollToIndex(active, { align: 'auto' });
  }, [active, follow, v]);

  return (
    <Box data-testid="history-table" data-rows={points.length}>
      <Box style={{ ...GRID, fontWeight: 600, padding: '4px 6px' }}>
        <span>#</span>
        <span>{t('table.time')}</span>
        <span style={{ textAlign: 'right' }}>{t('table.speed')}</span>
      </Box>
      <div
        ref={parent}
        style={{ height: HEIGHT, overflow: 'auto', position: 'relative' }}
        data-testid="history-table-scroll"
      >
        <div style={{ height: v.getTotalSize(), position: 'relative', width: '100%' }}>
          {v.getVirtualItems().map((item) => {
            const p = points[item.index];
            const on = item.index === active;
            return (
              <div
                key={item.key}
                role="row"
                data-testid="history-row"
                data-index={item.index}
                data-active={on ? 'true' : 'false'}
                onClick={() => onPick(item.index)}
                style={{
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  right: 0,
                  height: ROW,
                  transform: `translateY(${item.start}px)`,
                  ...GRID,
                  alignItems: 'center',
                  padding: '0 6px',
                  cursor: 'pointer',
                  background: on ? 'var(--mantine-color-blue-light)' : undefined,
                }}
              >
                <Text span size="xs" c="dimmed">
                  {item.index + 1}
                </Text>
                <Text span size="xs" truncate>
                  {formatTime(p.time)}
                </Text>
                <Text span size="xs" ta="right">
                  {formatSpeed(p.speed, unit, locale)}
                </Text>
              </div>
            );
          })}
        </div>
      </div>
    </Box>
  );
});
