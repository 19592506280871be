import {QueryClient} from "@tanstack/react-query";

/** The app's one query cache; run functions outside React read the gateway state from it too. */
export const queryClient = new QueryClient({defaultOptions: {queries: {retry: 1, refetchOnWindowFocus: false}}});
