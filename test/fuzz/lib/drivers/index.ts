/** The driver for each endpoint. */
import type { EndpointName } from '../protocols';
import type { DriverOptions, EndpointDriver } from './driver';
import { CopilotDriver } from './copilot';
import { GeminiDriver } from './gemini';
import { ClaudeDriver, ClioDriver, HeadlessDriver, NativeDriver } from './ws-drivers';

export function makeDriver(endpoint: EndpointName, options: DriverOptions): EndpointDriver {
  switch (endpoint) {
    case 'claude':
      return new ClaudeDriver(options);
    case 'gemini':
      return new GeminiDriver(options);
    case 'copilot':
      return new CopilotDriver(options);
    case 'clio':
      return new ClioDriver(options);
    case 'native':
      return new NativeDriver(options);
    case 'headless':
      return new HeadlessDriver(options);
  }
}
