/** What the tray shows, as plain data: the Electron shell only renders it. */
import type { AppSnapshot } from '../../shared/app-api';

export interface TrayModel {
  tooltip: string;
  pendingLabel: string;
  pendingCount: number;
}

export function trayModel(snapshot: Pick<AppSnapshot, 'reviews'>): TrayModel {
  const pendingCount = snapshot.reviews.filter((review) => review.state === 'pending').length;
  const pendingLabel =
    pendingCount === 0
      ? 'No pending reviews'
      : `${pendingCount} pending review${pendingCount === 1 ? '' : 's'}`;
  return { tooltip: `DiffTray — ${pendingLabel}`, pendingLabel, pendingCount };
}
