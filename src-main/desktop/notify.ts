/** System notifications, which take no focus: the window is never raised for them. */
import { Notification } from 'electron';

export interface Notice {
  title: string;
  body: string;
  /** Clicked, the notification opens this review; without one, the window. */
  reviewId?: string;
  /** With the OS's notification sound (settings.notifications.sound); silent unless asked. */
  sound?: boolean;
}

export function notify(
  notices: readonly Notice[],
  open: { review: (reviewId: string) => void; window: () => void },
): void {
  if (!Notification.isSupported()) return;
  for (const notice of notices) {
    const notification = new Notification({ title: notice.title, body: notice.body, silent: !notice.sound });
    const { reviewId } = notice;
    notification.on('click', reviewId ? () => open.review(reviewId) : open.window);
    notification.show();
  }
}
