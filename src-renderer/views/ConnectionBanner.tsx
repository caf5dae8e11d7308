import { useAppStore } from '../state/store';

/** Says plainly when main is out of reach; the carrier keeps retrying in the background. */
export function ConnectionBanner() {
  const connection = useAppStore((s) => s.connection);
  const detail = useAppStore((s) => s.connectionDetail);
  if (connection === 'connected') return null;
  const text = connection === 'connecting' ? 'Connecting to DiffTray…' : 'Disconnected from DiffTray';
  return (
    <div className="dt-banner" role="alert" data-testid="connection-banner" data-connection={connection}>
      <strong>{text}</strong>
      {connection === 'disconnected' && (
        <span>
          {' '}
          Reconnecting…{detail ? ` (${detail})` : ''} Decisions cannot be sent until the connection is back.
        </span>
      )}
    </div>
  );
}
