// First: the API's socket opens before the rest of the app's code is evaluated (early-socket.ts).
import './carriers/early-socket';
import { StrictMode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { createAppApi } from '../shared/app-api/client';
import { createActions } from './state/actions';
import { ApiContext } from './state/api-context';
import { CarrierKindContext } from './carriers/carrier-kind';
import { selectCarrier } from './carriers/select';
import { App } from './views/App';
import { ActionsContext } from './state/context';
import { startLiveState } from './state/live-state';
import { openSettingsOnRequest } from './settings/settings-view';
import { useAppStore } from './state/store';
import { whenFirstScreenReady } from './state/first-screen';
import './styles.css';
import { messageOf } from '../shared/error-message';

const carrier = selectCarrier(window);
const api = createAppApi(carrier);
const actions = createActions(api);

const live = startLiveState(
  api,
  (error) => useAppStore.getState().announce(`Could not load reviews: ${messageOf(error)}`),
  (review) => void actions.loadContents(review),
);
openSettingsOnRequest(api);
carrier.onStatus((status, detail) => {
  useAppStore.getState().setConnection(status, detail);
  // Pushes sent while we were away are gone: the whole picture is needed on every (re)connect. The
  // headless server sends it unasked, as the socket opens; asking again would only draw it twice.
  if (status === 'connected' && !carrier.snapshotOnConnect) void live.resync();
});

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');
// The first screen is drawn with main's state in it (first-screen.ts), at once: in the task that
// brought the state, not in one React would schedule behind the answers already arriving.
void whenFirstScreenReady(useAppStore).then(() =>
  flushSync(() =>
    createRoot(root).render(
      <StrictMode>
        <ApiContext.Provider value={api}>
          <CarrierKindContext.Provider value={carrier.kind}>
            <ActionsContext.Provider value={actions}>
              <App />
            </ActionsContext.Provider>
          </CarrierKindContext.Provider>
        </ApiContext.Provider>
      </StrictMode>,
    ),
  ),
);
