// The side panel that holds a routed page over the map (SPEC §2 shell layout): title, back, close, and on
// mobile minimise/expand.
import { ActionIcon, Box, Group, Paper, Title } from '@mantine/core';
import {
  IconArrowLeft,
  IconArrowsMaximize,
  IconArrowsMinimize,
  IconChevronDown,
  IconChevronUp,
  IconX,
} from '@tabler/icons-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { HintIcon } from './floating.tsx';
import { panelMoved } from './panelMoves.ts';

export interface PanelProps {
  title: string;
  children: ReactNode;
  onBack?: () => void;
  onClose?: () => void;
  mobile?: boolean;
  minimised?: boolean;
  onToggleMinimised?: () => void;
  /** Desktop: widen or narrow the panel (the route's `expand` query parameter). */
  onToggleExpanded?: () => void;
  /** Wide panel (?expand=true). */
  expanded?: boolean;
  /** Mobile bottom sheet instead of a full-height panel. */
  bottomSheet?: boolean;
  /** Full width (no map beside it). */
  fullWidth?: boolean;
}

export const PANEL_WIDTH = 420;
export const PANEL_WIDTH_EXPANDED = 860;

export function Panel(props: PanelProps) {
  const { t } = useTranslation('common');
  const { mobile, minimised, expanded, bottomSheet } = props;
  const box = useRef<HTMLElement>(null);
  // the map keeps the selected vehicle out from under the panel (features/map/panelView.ts, issue #29)
  useEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const watch = new ResizeObserver(() => panelMoved());
    watch.observe(el);
    return () => watch.disconnect();
  }, []);
  const width = props.fullWidth || mobile ? '100%' : expanded ? PANEL_WIDTH_EXPANDED : PANEL_WIDTH;
  const style: React.CSSProperties = mobile
    ? {
        position: 'absolute',
        left: 0,
        right: 0,
        bottom: 0,
        top: bottomSheet ? '45%' : 0,
        ...(minimised ? { top: 'auto', height: 52 } : {}),
      }
    : { position: 'absolute', left: 0, top: 0, bottom: 0, width, maxWidth: '100%' };
  return (
    <Paper
      ref={box}
      component="section"
      aria-label={props.title}
      data-testid="panel"
      data-minimised={minimised ? 'true' : 'false'}
      data-expanded={expanded ? 'true' : 'false'}
      shadow="md"
      radius={0}
      style={{ ...style, display: 'flex', flexDirection: 'column', zIndex: 5, overflow: 'hidden' }}
    >
      <Group
        justify="space-between"
        wrap="nowrap"
        px="sm"
        py={6}
        style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
      >
        <Group gap={4} wrap="nowrap" style={{ minWidth: 0 }}>
          {props.onBack && (
            <HintIcon label={t('back')} onClick={props.onBack} data-testid="panel-back">
              <IconArrowLeft size={18} />
            </HintIcon>
          )}
          <Title order={2} size="h4" lineClamp={1} data-testid="panel-title">
            {props.title}
          </Title>
        </Group>
        <Group gap={4} wrap="nowrap">
          {mobile && props.onToggleMinimised && (
            <ActionIcon
              variant="subtle"
              onClick={props.onToggleMinimised}
              aria-label={minimised ? t('expand') : t('minimise')}
              data-testid="panel-minimise"
            >
              {minimised ? <IconChevronUp size={18} /> : <IconChevronDown size={18} />}
            </ActionIcon>
          )}
          {!mobile && props.onToggleExpanded && (
            <HintIcon
              label={expanded ? t('narrow') : t('widen')}
              onClick={props.onToggleExpanded}
              data-testid="panel-expand"
            >
              {expanded ? <IconArrowsMinimize size={18} /> : <IconArrowsMaximize size={18} />}
            </HintIcon>
          )}
          {props.onClose && (
            <HintIcon label={t('close')} onClick={props.onClose} data-testid="panel-close">
              <IconX size={18} />
            </HintIcon>
          )}
        </Group>
      </Group>
      {!minimised && (
        // native scrolling: Mantine's ScrollArea would bring floating-ui (15 kB gzip) into the shell's first paint
        // focusable so a keyboard can scroll it when it holds no control (WCAG 2.1.1, axe scrollable-region-focusable)
        <Box style={{ flex: 1, minHeight: 0, overflow: 'auto' }} p="sm" tabIndex={0} data-testid="panel-body">
          {props.children}
        </Box>
      )}
    </Paper>
  );
}
