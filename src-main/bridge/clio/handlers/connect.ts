/** `connect`: the client proves its token (unless the upgrade's header did) and learns what DiffTray offers. */
import { tokensEqual } from '../../../loopback/auth';
import { DIFFTRAY_VERSION } from '../../../../shared/version';
import { CLIO_CAPABILITIES, type ClioServerMessage } from '../messages';
import { CLIO_AUTH_HEADER, ClioRequestError, type ClioHandler } from './context';

export const connect: ClioHandler<'connect'> = (message, { services, connection }) => {
  if (message.token !== undefined && !tokensEqual(message.token, services.token)) {
    connection.sendError('UNAUTHORIZED', 'Invalid token');
    services.log('clio: refused a connection (invalid token in connect)');
    // Nothing more is taken from this socket; the close handler cleans up as for any close.
    connection.close(1008, 'invalid token');
    return;
  }
  if (!connection.client && message.token === undefined) {
    if (connection.askToConnect) {
      connection.askToConnect(message.clientName, message.clientVersion);
      return;
    }
    throw new ClioRequestError(
      'UNAUTHORIZED',
      `A token is required: send "token" (the authToken in ~/.clio/ide/bridge.json) in connect, or the ${CLIO_AUTH_HEADER} header`,
    );
  }
  const session = connection.register();
  if (message.clientVersion) session.describe({ version: message.clientVersion });
  connection.send(connectedMessage());
};

/** The answer to a `connect` that is let in. */
export function connectedMessage(): ClioServerMessage {
  return {
    type: 'connected',
    serverVersion: DIFFTRAY_VERSION,
    capabilities: [...CLIO_CAPABILITIES],
    ideName: 'DiffTray',
  };
}
