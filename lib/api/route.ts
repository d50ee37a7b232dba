import { handleApiRequest } from "./handler";

/**
 * The route-handler exports every API route file re-exports. Next passes a
 * second argument (route params) that the API does not use, so it is dropped.
 */
const handle = (request: Request) => handleApiRequest(request);

export { handle as GET, handle as HEAD, handle as OPTIONS, handle as POST, handle as PUT, handle as PATCH, handle as DELETE };
