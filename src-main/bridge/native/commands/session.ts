/** `hello` opens or resumes a session; `heartbeat` is a sign of life (any message is one, too). */
import {
  ErrorCode,
  NATIVE_MAX_FILE_BYTES,
  NATIVE_MAX_FILES_PER_CHANGE_SET,
  NATIVE_MAX_MESSAGE_BYTES,
  type HelloResponse,
  type Limits,
} from '../../../../shared/native-protocol';
import { defineCommand, RequestError, type NativeServices } from './command';

export const hello = defineCommand('hello', (payload, { services, connection, respond }) => {
  const { sessions } = services;
  let session = connection.session;
  let resumed = false;
  // A paired client is named after the host it was paired as: "difftray review on build-box".
  const name = connection.paired
    ? `${payload.client_name} on ${connection.paired.name}`
    : payload.client_name;
  if (session) {
    if (payload.session_id !== undefined && payload.session_id !== session.id) {
      throw new RequestError(ErrorCode.INVALID_PAYLOAD, `This connection already has session ${session.id}`);
    }
  } else if (payload.session_id !== undefined) {
    session = sessions.get(payload.session_id);
    // A session is resumed only with the credentials that opened it (the lock file's, or one paired client's).
    if (session && session.pairedId !== connection.paired?.id) session = undefined;
    if (!session) {
      throw new RequestError(
        ErrorCode.SESSION_UNKNOWN,
        `Unknown session ${payload.session_id}: it ended (or DiffTray restarted); say hello without session_id`,
      );
    }
    sessions.attach(session, connection, name, payload.client_version);
    connection.hold(session);
    resumed = true;
  } else {
    const { integration, agent_session_id, workspace, pid, one_shot } = payload;
    session = sessions.create(name, payload.client_version, connection, {
      ...(integration !== undefined && { integration }),
      ...(agent_session_id !== undefined && { agent_session_id }),
      ...(workspace !== undefined && { workspace }),
      ...(pid !== undefined && { pid }),
      ...(one_shot !== undefined && { one_shot }),
    });
    if (connection.paired) session.pairedId = connection.paired.id;
    connection.hold(session);
  }
  const response: HelloResponse = {
    session_id: session.id,
    resumed,
    server_name: 'DiffTray',
    server_version: services.serverVersion,
    heartbeat_interval_ms: services.heartbeatIntervalMs,
    limits: limits(services),
    // A paired host's files are its own: this machine's folders are none of its business.
    workspace_folders: connection.paired ? [] : [...services.port.workspaceFolders],
  };
  respond(response);
  // What was decided while the client was away follows the hello response.
  for (const push of sessions.takeUndelivered(session)) connection.deliver(push);
});

export const heartbeat = defineCommand('heartbeat', (_payload, { respond }) =>
  respond({ server_time: Date.now() }),
);

function limits({ rateLimit }: NativeServices): Limits {
  return {
    max_file_bytes: NATIVE_MAX_FILE_BYTES,
    max_message_bytes: NATIVE_MAX_MESSAGE_BYTES,
    max_files_per_change_set: NATIVE_MAX_FILES_PER_CHANGE_SET,
    rate_limit: { messages: rateLimit.messages, per_ms: rateLimit.perMs },
  };
}
