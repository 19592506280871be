import {QueryClientProvider} from "@tanstack/react-query";
import {StrictMode} from "react";
import {createRoot} from "react-dom/client";
import {App} from "./App.tsx";
import {setupMonaco} from "./monaco/setupMonaco.ts";
import {queryClient} from "./state/queryClient.ts";
import "./styles/base.css";
import "./styles/layout.css";
import "./styles/controls.css";
import "./styles/playground.css";
import "./styles/pages.css";

setupMonaco();

createRoot(document.getElementById("root")!).render(
    <StrictMode>
        <QueryClientProvider client={queryClient}>
            <App />
        </QueryClientProvider>
    </StrictMode>
);
