// Generated from the served OpenAPI document by `npm run console:api`. Do not edit.
export interface paths {
    "/api/activity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * My account activity, newest first: what was created, changed and deleted, deposits, and sign-ins and other security events
         * @description Every signed-in write of the customer API is recorded in the transaction of its change, with the IP address, the user agent and whether platform staff did it in an impersonated session.
         *
         *     API tokens: needs the `account:read` scope.
         */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description e.g. vm.created, vm.deleted, network.deleted, bucket.created, access_key.deleted, deposit.created, customer.login */
                                action: string;
                                /** Format: date-time */
                                created_at: string;
                                /** @description the request as made (route, path parameters, body without secrets), or the event's details */
                                details: unknown;
                                id: number;
                                /** @description done by platform staff in an impersonated session of this account */
                                impersonated: boolean;
                                ip: string | null;
                                target_id: string | null;
                                /** @description what it acted on: vm, network, bucket, access_key, deposit, …; customer for security events */
                                target_type: string | null;
                                user_agent: string | null;
                            }[];
                            message: string;
                            meta: {
                                limit: number;
                                page: number;
                                total: number;
                                total_pages: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/announcements": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Published announcements, newest first
         * @description API tokens: needs the `account:read` scope.
         */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: number;
                                message: string;
                                /** Format: date-time */
                                published_at: string;
                                title: string;
                            }[];
                            message: string;
                            meta: {
                                limit: number;
                                page: number;
                                total: number;
                                total_pages: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/announcements/highlight": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The newest published announcement (null when there is none)
         * @description API tokens: needs the `account:read` scope.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: number;
                                message: string;
                                /** Format: date-time */
                                published_at: string;
                                title: string;
                            } | null;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/2fa/verify-code": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Second login step with a TOTP code (needs the mfa_challenge cookie) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description 6-digit TOTP code */
                        code: string;
                        email: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description DASHBOARD: full cookies were set; 2FA: only the mfa_challenge cookie */
                                redirect: "DASHBOARD" | "2FA";
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/2fa/verify-recovery": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Second login step with a recovery code (recovery_code or code) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description alias of recovery_code */
                        code?: string;
                        email: string;
                        recovery_code?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description DASHBOARD: full cookies were set; 2FA: only the mfa_challenge cookie */
                                redirect: "DASHBOARD" | "2FA";
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log in; with 2FA on only the mfa_challenge cookie is set
         * @description Sets access_token and refresh_token (redirect DASHBOARD), or only mfa_challenge (redirect 2FA). Unverified accounts get 403 EMAIL_NOT_VERIFIED; 10 failures in 15 minutes lock the login for 15 minutes (429).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        email: string;
                        password: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description DASHBOARD: full cookies were set; 2FA: only the mfa_challenge cookie */
                                redirect: "DASHBOARD" | "2FA";
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End the current session (named by the access cookie, else the refresh cookie); always 200, clears the cookies */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: null;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/password/change": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change the password; other sessions are ended
         * @description Not available to API tokens.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        current_password: string;
                        new_password: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: null;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/password/forgot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mail a reset link (always 200) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        email: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: null;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/password/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Set a new password with the link token; all sessions end */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        new_password: string;
                        token: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: null;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/profile/2fa/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Turn 2FA off with a current code
         * @description Not available to API tokens.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description sudo token from POST /api/auth/profile/sudo */
                    "x-access-token"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description 6-digit TOTP code */
                        code: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: null;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/profile/2fa/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Turn 2FA on with a code of the pending secret; returns 10 recovery codes once
         * @description Not available to API tokens.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description sudo token from POST /api/auth/profile/sudo */
                    "x-access-token"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description 6-digit TOTP code */
                        code: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                recovery_codes: string[];
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/profile/2fa/generate-code": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * New TOTP secret (pending until enable)
         * @description Not available to API tokens.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description sudo token from POST /api/auth/profile/sudo */
                    "x-access-token"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                otpauth_url: string;
                                /** @description data:image/png;base64,... of the otpauth URL */
                                qr_code: string;
                                /** @description base32 TOTP secret */
                                secret: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/profile/2fa/recovery": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * How many recovery codes remain (hints only)
         * @description Not available to API tokens.
         */
        get: {
            parameters: {
                query?: never;
                header?: {
                    /** @description sudo token from POST /api/auth/profile/sudo */
                    "x-access-token"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                codes: {
                                    /** @description first 3 characters */
                                    hint: string;
                                    used: boolean;
                                }[];
                                remaining: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/profile/2fa/recovery/regenerate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A new set of 10 recovery codes; the old set stops working
         * @description Not available to API tokens.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description sudo token from POST /api/auth/profile/sudo */
                    "x-access-token"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                recovery_codes: string[];
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/profile/change-email/confirm-new": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Step 4: the link token replaces the address; new cookies for this session, other sessions end
         * @description Not available to API tokens.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        token: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                email: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/profile/change-email/request": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Step 1: mail a 6-digit code (10 minutes) to the current address
         * @description Not available to API tokens.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                expires_at: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/profile/change-email/send-new": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Step 3: mail a confirmation link (24 hours, single use) to the new address
         * @description Not available to API tokens.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: email */
                        new_email: string;
                        token: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: null;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/profile/change-email/verify-old": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Step 2: the code gives an intermediate token (15 minutes)
         * @description Not available to API tokens.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description 6-digit TOTP code */
                        code: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                expires_at: string;
                                token: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/profile/sudo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Re-authenticate for 5 minutes: returns the X-Access-Token value
         * @description password, plus code while 2FA is on. The token is bound to the current session.
         *
         *     Not available to API tokens.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description 6-digit TOTP code */
                        code?: string;
                        password: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                expires_at: string;
                                token: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** New cookies from the refresh_token cookie (rotated; reuse ends the session) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: null;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create an account; a verification link is e-mailed */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description P = Personal, B = Business */
                        account_type: "P" | "B";
                        /** Format: email */
                        email: string;
                        first_name: string;
                        last_name: string;
                        password: string;
                        /** @description another customer's referral code (GET /api/customer/referral); an unknown code refuses the registration */
                        referral_code?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/register/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mail a new verification link to an unverified account (always 200) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        email: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: null;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/register/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Confirm the e-mail address with the link token */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        token: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: null;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * My device sessions
         * @description Not available to API tokens.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                current: boolean;
                                /** Format: uuid */
                                id: string;
                                /** @description opened by support staff impersonating you */
                                impersonated: boolean;
                                ip: string | null;
                                /** Format: date-time */
                                last_access_at: string;
                                user_agent: string | null;
                            }[];
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/sessions/{sid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * End one of my device sessions
         * @description Not available to API tokens.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    sid: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: null;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/2fa/force-disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Switches the customer's 2FA off; the reason is audited and the customer is e-mailed
         * @description Needs the `manage_2fa` permission.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        customer_id: number;
                        /** @description kept in the audit log and sent to the customer */
                        reason: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                customer_id: number;
                                is_2fa_active: boolean;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/backoffice/admin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Staff accounts (deleted ones included)
         * @description Needs the `view_admins` permission.
         *
         *     Needs the `view_admins` permission.
         */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                deleted_at: string | null;
                                email: string;
                                id: number;
                                is_deleted: boolean;
                                last_login_at: string | null;
                                must_change_password: boolean;
                                name: string;
                                role: string;
                            }[];
                            message: string;
                            meta: {
                                limit: number;
                                page: number;
                                total: number;
                                total_pages: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Creates a staff account with a generated password (returned once, e-mailed)
         * @description Needs the `manage_admins` permission.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: email */
                        email: string;
                        name: string;
                        role: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                deleted_at: string | null;
                                email: string;
                                id: number;
                                is_deleted: boolean;
                                last_login_at: string | null;
                                must_change_password: boolean;
                                name: string;
                                /** @description the generated password; shown only in this response (and e-mailed) */
                                password: string;
                                role: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/admin/{id}/2fa/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Turns off another admin's two-factor authentication (Super Admin only), with the reason for the audit log; their sessions end
         * @description Needs the `manage_admins` permission.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        reason: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: null;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/admin/{id}/delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Soft-deletes a staff account (Super Admin only); its sessions end at once
         * @description Needs the `manage_admins` permission.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: null;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/admin/{id}/reset-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Generates a new password (Super Admin only); returned once, e-mailed, must be changed at next login
         * @description Needs the `manage_admins` permission.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                deleted_at: string | null;
                                email: string;
                                id: number;
                                is_deleted: boolean;
                                last_login_at: string | null;
                                must_change_password: boolean;
                                name: string;
                                /** @description the generated password; shown only in this response (and e-mailed) */
                                password: string;
                                role: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/admin/{id}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Restores a soft-deleted staff account
         * @description Needs the `manage_admins` permission.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                deleted_at: string | null;
                                email: string;
                                id: number;
                                is_deleted: boolean;
                                last_login_at: string | null;
                                must_change_password: boolean;
                                name: string;
                                role: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/admin/{id}/update-role": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Changes an admin's role; in force at their next token refresh (within 15 minutes)
         * @description Requests carry the permissions of the 15-minute access token, so the new role applies at the next refresh (a new login too). A ticket stream the admin holds open ends at its next heartbeat if the new role lacks view_tickets; an impersonation session they opened ends at once.
         *
         *     Needs the `manage_admins` permission.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        role: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                deleted_at: string | null;
                                email: string;
                                id: number;
                                is_deleted: boolean;
                                last_login_at: string | null;
                                must_change_password: boolean;
                                name: string;
                                role: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/backoffice/admin/inf": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The logged-in admin with role and permissions */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                email: string;
                                id: number;
                                last_login_at: string | null;
                                must_change_password: boolean;
                                name: string;
                                /** @description resolved at login and at every token refresh: role changes apply within 15 minutes */
                                permissions: string[];
                                role: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/admin/permissions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The permission catalog and the permission each backoffice route needs
         * @description Needs the `view_roles` permission.
         *
         *     Needs the `view_roles` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                permissions: {
                                    description: string;
                                    name: string;
                                }[];
                                routes: {
                                    /** @description writes: the audit action recorded when the service records nothing richer */
                                    audit?: string;
                                    method: string;
                                    /** @description a catalog permission, 'public' or 'authenticated' */
                                    permission: string;
                                    url: string;
                                }[];
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/admin/roles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Roles with their permission counts
         * @description Needs the `view_roles` permission.
         *
         *     Needs the `view_roles` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                admin_count: number;
                                description: string;
                                id: number;
                                is_builtin: boolean;
                                is_locked: boolean;
                                name: string;
                                permission_count: number;
                            }[];
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/admin/roles/{role_name}/permissions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every catalog permission with whether the role holds it
         * @description Needs the `view_roles` permission.
         *
         *     Needs the `view_roles` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    role_name: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                assigned: boolean;
                                description: string;
                                name: string;
                            }[];
                            message: string;
                            meta: {
                                locked: boolean;
                                role: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Sync: the array replaces the role's permissions (Super Admin only; Super Admin role is locked)
         * @description In force for the role's admins at their next token refresh (within 15 minutes); open ticket streams of admins who lose view_tickets end at their next heartbeat.
         *
         *     Needs the `manage_roles` permission.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    role_name: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        permissions: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                permissions: string[];
                                role: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/announcements/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every announcement, newest first (any status)
         * @description Needs the `manage_announcements` permission.
         *
         *     Needs the `manage_announcements` permission.
         *
         *     Needs the `manage_announcements` permission.
         */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page?: number;
                    /** @description Draft (new, not visible) → Published (visible to customers) → Withdrawn (hidden again; may be published again) */
                    status?: "Draft" | "Published" | "Withdrawn";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                created_by_admin_id: number | null;
                                id: number;
                                message: string;
                                /** @description a scheduled publication not yet made */
                                publish_at: string | null;
                                published_at: string | null;
                                /** @description Draft (new, not visible) → Published (visible to customers) → Withdrawn (hidden again; may be published again) */
                                status: "Draft" | "Published" | "Withdrawn";
                                title: string;
                                /** Format: date-time */
                                updated_at: string;
                                withdrawn_at: string | null;
                            }[];
                            message: string;
                            meta: {
                                limit: number;
                                page: number;
                                total: number;
                                total_pages: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a announcement (Draft: not visible to customers)
         * @description Needs the `manage_announcements` permission.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        message: string;
                        title: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                created_by_admin_id: number | null;
                                id: number;
                                message: string;
                                /** @description a scheduled publication not yet made */
                                publish_at: string | null;
                                published_at: string | null;
                                /** @description Draft (new, not visible) → Published (visible to customers) → Withdrawn (hidden again; may be published again) */
                                status: "Draft" | "Published" | "Withdrawn";
                                title: string;
                                /** Format: date-time */
                                updated_at: string;
                                withdrawn_at: string | null;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/announcements/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One announcement
         * @description Needs the `manage_announcements` permission.
         *
         *     Needs the `manage_announcements` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                created_by_admin_id: number | null;
                                id: number;
                                message: string;
                                /** @description a scheduled publication not yet made */
                                publish_at: string | null;
                                published_at: string | null;
                                /** @description Draft (new, not visible) → Published (visible to customers) → Withdrawn (hidden again; may be published again) */
                                status: "Draft" | "Published" | "Withdrawn";
                                title: string;
                                /** Format: date-time */
                                updated_at: string;
                                withdrawn_at: string | null;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        /**
         * Replace the title and message of a announcement (its status stays)
         * @description Needs the `manage_announcements` permission.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        message: string;
                        title: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                created_by_admin_id: number | null;
                                id: number;
                                message: string;
                                /** @description a scheduled publication not yet made */
                                publish_at: string | null;
                                published_at: string | null;
                                /** @description Draft (new, not visible) → Published (visible to customers) → Withdrawn (hidden again; may be published again) */
                                status: "Draft" | "Published" | "Withdrawn";
                                title: string;
                                /** Format: date-time */
                                updated_at: string;
                                withdrawn_at: string | null;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        post?: never;
        /**
         * Delete a announcement (in any status)
         * @description Needs the `manage_announcements` permission.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/announcements/{id}/publish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Publish a announcement: visible to customers (now, or at publish_at)
         * @description No body publishes now. `{ "publish_at": "<instant>" }` in the future schedules it: the status stays and `publish_at` is set until a job publishes it (checked every minute). A Published document answers 409 ALREADY_PUBLISHED.
         *
         *     Needs the `manage_announcements` permission.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": {
                        /**
                         * Format: date-time
                         * @description ISO 8601 instant with an explicit offset (Z or ±hh:mm), e.g. 2030-01-31T17:00:00Z; between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z in UTC; fractions of a second are kept to the millisecond
                         */
                        publish_at?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                created_by_admin_id: number | null;
                                id: number;
                                message: string;
                                /** @description a scheduled publication not yet made */
                                publish_at: string | null;
                                published_at: string | null;
                                /** @description Draft (new, not visible) → Published (visible to customers) → Withdrawn (hidden again; may be published again) */
                                status: "Draft" | "Published" | "Withdrawn";
                                title: string;
                                /** Format: date-time */
                                updated_at: string;
                                withdrawn_at: string | null;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/announcements/{id}/unpublish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Withdraw a published announcement (or cancel its scheduled publication)
         * @description Published → Withdrawn, hidden from customers. Neither published nor scheduled: 409 NOT_PUBLISHED.
         *
         *     Needs the `manage_announcements` permission.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                created_by_admin_id: number | null;
                                id: number;
                                message: string;
                                /** @description a scheduled publication not yet made */
                                publish_at: string | null;
                                published_at: string | null;
                                /** @description Draft (new, not visible) → Published (visible to customers) → Withdrawn (hidden again; may be published again) */
                                status: "Draft" | "Published" | "Withdrawn";
                                title: string;
                                /** Format: date-time */
                                updated_at: string;
                                withdrawn_at: string | null;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/audit-logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The audit log, newest first; filter by actor_type, actor_id, action, target_type, target_id
         * @description A customer's activity (their writes, in their sessions or impersonated, and their security events): actor_type=customer&actor_id=<customer id>.
         *
         *     Needs the `view_audit_logs` permission.
         *
         *     Needs the `view_audit_logs` permission.
         */
        get: {
            parameters: {
                query?: {
                    action?: string;
                    actor_id?: number;
                    actor_type?: "admin" | "customer" | "system" | "anonymous";
                    limit?: number;
                    page?: number;
                    target_id?: string;
                    target_type?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                action: string;
                                actor_id: number | null;
                                /** @description admin, customer, system or anonymous */
                                actor_type: string;
                                /** @description state after the change (JSON), or null */
                                after: unknown;
                                /** @description state before the change (JSON), or null */
                                before: unknown;
                                /** Format: date-time */
                                created_at: string;
                                id: number;
                                impersonator_admin_id: number | null;
                                ip: string | null;
                                target_id: string | null;
                                target_type: string | null;
                                user_agent: string | null;
                            }[];
                            message: string;
                            meta: {
                                limit: number;
                                page: number;
                                total: number;
                                total_pages: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/auth/2fa/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Turn 2FA off with the password and a current code */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        code: string;
                        password: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: null;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/auth/2fa/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Enrolment: a code of the pending secret turns 2FA on; returns 10 recovery codes once */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        code: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description shown once */
                                recovery_codes: string[];
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/auth/2fa/generate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Enrolment: a new TOTP secret (pending until enable); needs the password */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        password: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                otpauth_url: string;
                                /** @description data:image/png;base64,... */
                                qr_code: string;
                                secret: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/auth/2fa/recovery/regenerate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A new set of 10 recovery codes (password and a current code); the old set stops working */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        code: string;
                        password: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description shown once */
                                recovery_codes: string[];
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/auth/2fa/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Second login step: a TOTP code or a recovery code (needs the bo_mfa_challenge cookie) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description code (TOTP) or recovery_code */
            requestBody: {
                content: {
                    "application/json": {
                        code?: string;
                        recovery_code?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                admin?: {
                                    /** Format: date-time */
                                    created_at: string;
                                    email: string;
                                    id: number;
                                    last_login_at: string | null;
                                    must_change_password: boolean;
                                    name: string;
                                    /** @description resolved at login and at every token refresh: role changes apply within 15 minutes */
                                    permissions: string[];
                                    role: string;
                                };
                                /** @description true: only change-password (and logout) work until the password is changed */
                                must_change_password: boolean;
                                /** @description true: no session yet; send a code to POST /api/backoffice/auth/2fa/verify (the bo_mfa_challenge cookie is set) */
                                two_factor_required: boolean;
                                /** @description true: the role moves money and the staff-2fa setting is on: only 2FA enrolment (and logout) work until 2FA is on */
                                two_factor_setup_required: boolean;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/auth/change-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Changes the admin's own password; other sessions of the admin end */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        current_password: string;
                        new_password: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: null;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/auth/device-session/update": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Sets the customer's max_session; the least recently used sessions beyond it end at once
         * @description Needs the `manage_sessions` permission.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        customer_id: number;
                        max_session: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                customer_id: number;
                                max_session: number;
                                sessions_revoked: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/backoffice/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Staff login; sets bo_access_token (15 min) and bo_refresh_token cookies, or with 2FA on only bo_mfa_challenge */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        email: string;
                        password: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                admin?: {
                                    /** Format: date-time */
                                    created_at: string;
                                    email: string;
                                    id: number;
                                    last_login_at: string | null;
                                    must_change_password: boolean;
                                    name: string;
                                    /** @description resolved at login and at every token refresh: role changes apply within 15 minutes */
                                    permissions: string[];
                                    role: string;
                                };
                                /** @description true: only change-password (and logout) work until the password is changed */
                                must_change_password: boolean;
                                /** @description true: no session yet; send a code to POST /api/backoffice/auth/2fa/verify (the bo_mfa_challenge cookie is set) */
                                two_factor_required: boolean;
                                /** @description true: the role moves money and the staff-2fa setting is on: only 2FA enrolment (and logout) work until 2FA is on */
                                two_factor_setup_required: boolean;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ends this backoffice session (named by the access cookie, else the refresh cookie); always 200, clears the cookies */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: null;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/auth/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rotates the bo_refresh_token cookie and issues a new access token */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: null;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/billing/charge-failures": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Customers the hourly charge set aside because charging them failed (default), or, with resolved=true, those charged again since
         * @description Every other customer is charged as usual; a customer set aside is retried alone, from the first hour not charged, at each hourly run once next_retry_at has passed (1 h, doubling, at most a day).
         *
         *     Needs the `view_transactions` permission.
         *
         *     Needs the `view_transactions` permission.
         */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page?: number;
                    /** @description true: the customers charged again since; default false: the ones still set aside */
                    resolved?: boolean;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description failed charge runs, the first included */
                                attempts: number;
                                customer_email: string;
                                customer_id: number;
                                /** @description the database's words, never SQL */
                                error: string;
                                /** @description the SQLSTATE (e.g. 22003, a value no column holds) or the error code */
                                error_code: string;
                                /** Format: date-time */
                                failed_at: string;
                                /** Format: date-time */
                                first_hour: string;
                                /** Format: date-time */
                                last_attempt_at: string;
                                /** Format: date-time */
                                next_retry_at: string;
                                resolved_at: string | null;
                            }[];
                            message: string;
                            meta: {
                                limit: number;
                                page: number;
                                total: number;
                                total_pages: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/billing/charge-failures/{customer_id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Charge a customer set aside now (once the cause is fixed): their hours from the first one not charged; answers the failure, resolved or with the new error
         * @description Needs the `manage_balance` permission.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    customer_id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description failed charge runs, the first included */
                                attempts: number;
                                customer_email: string;
                                customer_id: number;
                                /** @description the database's words, never SQL */
                                error: string;
                                /** @description the SQLSTATE (e.g. 22003, a value no column holds) or the error code */
                                error_code: string;
                                /** Format: date-time */
                                failed_at: string;
                                /** Format: date-time */
                                first_hour: string;
                                /** Format: date-time */
                                last_attempt_at: string;
                                /** Format: date-time */
                                next_retry_at: string;
                                resolved_at: string | null;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/billing/credit-failures": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Paid top-ups whose wallet credit failed: open ones (default) or, with resolved=true, those credited since
         * @description A paid invoice always ends credited or listed here. A permanent failure (a business rule refused the credit, or 20 runs failed) is not retried until staff retry it.
         *
         *     Needs the `view_transactions` permission.
         *
         *     Needs the `view_transactions` permission.
         */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page?: number;
                    /** @description true: the failures since credited; default false: the open ones */
                    resolved?: boolean;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                amount: number;
                                /** @description failed credit runs */
                                attempts: number;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                bonus_amount: number;
                                credited_at: string | null;
                                currency: string;
                                customer_id: number;
                                error_code: string;
                                /** Format: date-time */
                                first_failed_at: string;
                                gateway_name: string;
                                /** Format: uuid */
                                invoice_id: string;
                                /** @description Pending → Paid (verified success), Failed (gateway failure), Expired (TOPUP_EXPIRY_HOURS passed, or the gateway expired it) */
                                invoice_status: "Pending" | "Paid" | "Failed" | "Expired";
                                last_error: string;
                                /** Format: date-time */
                                last_failed_at: string;
                                paid_at: string | null;
                                /** @description true: not retried until staff retry it (a business rule refused the credit, or too many runs failed) */
                                permanent: boolean;
                                resolved_at: string | null;
                            }[];
                            message: string;
                            meta: {
                                limit: number;
                                page: number;
                                total: number;
                                total_pages: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/billing/credit-failures/{invoice_id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry crediting a paid top-up (once the cause is fixed); it is queued now and retried again by the sweep
         * @description Needs the `manage_balance` permission.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    invoice_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: uuid */
                                invoice_id: string;
                                queued: boolean;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/billing/export-invoice": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Any invoice as PDF, postpaid or top-up (admin_invoice_YYYY-MM.pdf: the postpaid period, or the month the top-up invoice was made)
         * @description Needs the `view_billing` permission.
         *
         *     Needs the `view_billing` permission.
         */
        get: {
            parameters: {
                query: {
                    /** @description invoice UUID */
                    id: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description PDF document */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/pdf": string;
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/pdf": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/pdf": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/pdf": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/pdf": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/billing/payment-callbacks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every payment gateway callback received, verified or not, newest first (the reconciliation trail)
         * @description Needs the `view_transactions` permission.
         *
         *     Needs the `view_transactions` permission.
         */
        get: {
            parameters: {
                query?: {
                    gateway?: "pgone" | "pgtwo";
                    /** @description The invoice the callback named (as sent, unverified) */
                    invoice_id?: string;
                    limit?: number;
                    /** @description What the service did with the callback: paid/failed/expired moved the invoice; duplicate repeated a handled one; the rest were refused */
                    outcome?: "paid" | "failed" | "expired" | "duplicate" | "ignored" | "invalid" | "invalid_signature" | "unknown_invoice" | "amount_mismatch" | "gateway_mismatch" | "unconfirmed" | "error";
                    page?: number;
                    signature_valid?: boolean;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                claimed_invoice_id: string | null;
                                gateway: string;
                                /** @description The recorded request headers (content type, signature, user agent, forwarding) */
                                headers: {
                                    [key: string]: string;
                                };
                                id: number;
                                /**
                                 * @description What the service did with the callback: paid/failed/expired moved the invoice; duplicate repeated a handled one; the rest were refused
                                 * @enum {unknown}
                                 */
                                outcome: "paid" | "failed" | "expired" | "duplicate" | "ignored" | "invalid" | "invalid_signature" | "unknown_invoice" | "amount_mismatch" | "gateway_mismatch" | "unconfirmed" | "error";
                                /** @description The body as received, up to 64 KiB */
                                raw_body: string;
                                /** Format: date-time */
                                received_at: string;
                                remote_ip: string | null;
                                /** @description The HTTP status the service answered */
                                response_status: number;
                                signature_valid: boolean;
                            }[];
                            message: string;
                            meta: {
                                limit: number;
                                page: number;
                                total: number;
                                total_pages: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/billing/postpaid/invoices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * All postpaid invoices (filters: status, customer_id, period YYYY-MM, search)
         * @description Needs the `view_billing` permission.
         *
         *     Needs the `view_billing` permission.
         */
        get: {
            parameters: {
                query?: {
                    customer_id?: number;
                    limit?: number;
                    page?: number;
                    /** @description YYYY-MM, a year between 1970 and 9999 */
                    period?: string;
                    /** @description invoice number or customer e-mail */
                    search?: string;
                    status?: "UNPAID" | "OVERDUE" | "PAID";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                amount_due: number;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                amount_paid: number;
                                currency: string;
                                customer_id: number;
                                /** Format: date-time */
                                due_at: string;
                                invoice_id: string;
                                /** Format: date-time */
                                issued_at: string;
                                /** @description PP-YYYYMM-<customer> */
                                number: string;
                                overdue_at: string | null;
                                paid_at: string | null;
                                paid_note: string | null;
                                /** Format: date-time */
                                period_end: string;
                                /** Format: date-time */
                                period_start: string;
                                status: "UNPAID" | "OVERDUE" | "PAID";
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                subtotal: number;
                            }[];
                            message: string;
                            meta: {
                                limit: number;
                                page: number;
                                total: number;
                                total_pages: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/billing/postpaid/invoices/{invoice_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One postpaid invoice with its lines
         * @description Needs the `view_billing` permission.
         *
         *     Needs the `view_billing` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description invoice UUID */
                    invoice_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                amount_due: number;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                amount_paid: number;
                                currency: string;
                                customer_email: string | null;
                                customer_id: number;
                                /** Format: date-time */
                                due_at: string;
                                invoice_id: string;
                                /** Format: date-time */
                                issued_at: string;
                                lines: {
                                    /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                    amount: number;
                                    description: string;
                                    /** @description clock hours with usage */
                                    hours: number;
                                    /** Format: date-time */
                                    period_end: string;
                                    /** Format: date-time */
                                    period_start: string;
                                    resource_id: string;
                                    resource_type: string;
                                    /** @description exact usage (6 decimals) */
                                    usage_amount: number;
                                }[];
                                /** @description PP-YYYYMM-<customer> */
                                number: string;
                                overdue_at: string | null;
                                paid_at: string | null;
                                paid_note: string | null;
                                /** Format: date-time */
                                period_end: string;
                                /** Format: date-time */
                                period_start: string;
                                status: "UNPAID" | "OVERDUE" | "PAID";
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                subtotal: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/billing/postpaid/invoices/{invoice_id}/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Mark an UNPAID or OVERDUE invoice PAID after checking a manual transfer (receipt e-mailed)
         * @description Needs the `verify_invoices` permission.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description invoice UUID */
                    invoice_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        paid_note: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                amount_due: number;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                amount_paid: number;
                                currency: string;
                                customer_id: number;
                                /** Format: date-time */
                                due_at: string;
                                invoice_id: string;
                                /** Format: date-time */
                                issued_at: string;
                                /** @description PP-YYYYMM-<customer> */
                                number: string;
                                overdue_at: string | null;
                                paid_at: string | null;
                                paid_note: string | null;
                                /** Format: date-time */
                                period_end: string;
                                /** Format: date-time */
                                period_start: string;
                                status: "UNPAID" | "OVERDUE" | "PAID";
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                subtotal: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/backoffice/billing/prepaid/invoices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Top-up invoices of all customers, newest first
         * @description Needs the `view_billing` permission.
         *
         *     Needs the `view_billing` permission.
         */
        get: {
            parameters: {
                query?: {
                    customer_id?: number;
                    limit?: number;
                    page?: number;
                    /** @description Pending → Paid (verified success), Failed (gateway failure), Expired (TOPUP_EXPIRY_HOURS passed, or the gateway expired it) */
                    status?: "Pending" | "Paid" | "Failed" | "Expired";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                actions: {
                                    qr_string: string | null;
                                    redirect_url: string | null;
                                    va_number: string | null;
                                };
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                amount: number;
                                /** @description the coupon bonus quoted when the deposit was made (credited when it is paid, see bonus_status) */
                                bonus_amount: number;
                                /**
                                 * @description none: no coupon; reserved: a use of the coupon is held for this deposit; released: the deposit failed or expired and gave the use back; credited: the bonus was paid; forfeited: paid after the use was released, when the coupon had none left: no bonus
                                 * @enum {unknown}
                                 */
                                bonus_status: "none" | "reserved" | "released" | "credited" | "forfeited";
                                coupon_code: string | null;
                                /** Format: date-time */
                                created_at: string;
                                credited_amount: number | null;
                                credited_at: string | null;
                                credited_bonus: number | null;
                                currency: string;
                                customer_id: number;
                                /** Format: date-time */
                                expires_at: string;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                fee: number;
                                gateway_name: string;
                                /** Format: uuid */
                                invoice_id: string;
                                method_code: string;
                                method_name: string;
                                method_type: string;
                                paid_at: string | null;
                                payment_url: string | null;
                                /** @description Pending → Paid (verified success), Failed (gateway failure), Expired (TOPUP_EXPIRY_HOURS passed, or the gateway expired it) */
                                status: "Pending" | "Paid" | "Failed" | "Expired";
                                /** @description amount + fee: what the gateway charges */
                                total_amount: number;
                            }[];
                            message: string;
                            meta: {
                                limit: number;
                                page: number;
                                total: number;
                                total_pages: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/billing/wallet-drift": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Wallets whose balances differed from the sums of their ledger at the last reconciliation run (job wallet.reconcile, hourly)
         * @description Needs the `view_transactions` permission.
         *
         *     Needs the `view_transactions` permission.
         */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                actual_balance: number;
                                /** @description actual_balance − ledger_actual */
                                actual_drift: number;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                current_balance: number;
                                /** @description current_balance − ledger_current */
                                current_drift: number;
                                customer_id: number;
                                /** Format: date-time */
                                detected_at: string;
                                /** @description Σ actual_amount of the ledger */
                                ledger_actual: number;
                                /** @description Σ amount of the ledger */
                                ledger_current: number;
                            }[];
                            message: string;
                            meta: {
                                limit: number;
                                page: number;
                                total: number;
                                total_pages: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/component/components": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Priced components
         * @description Needs the `view_pricing` permission.
         *
         *     Needs the `view_pricing` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description stable: vcpu, ram_gb, disk_gb, public_ip, private_network, object_storage_gb, block_storage_gb, vm_tier */
                                code: string;
                                id: number;
                                name: string;
                                /** @description a tier may carry its own price of it (update-tier with this component_id); the package (vm_tier) is the tier price itself */
                                tier_own_price: boolean;
                                /** @enum {string} */
                                type: "compute" | "storage" | "network";
                                unit: string;
                            }[];
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/compute/locations/{id}/hypervisors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A location's hypervisors and what they hold, asked of the datacenter now
         * @description An unknown location is 404; a datacenter that does not answer is 503 DATACENTER_UNAVAILABLE.
         *
         *     Needs the `view_compute` permission.
         *
         *     Needs the `view_compute` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description machines it holds, running or not */
                                machines: number;
                                /** @description total − used (placement puts a new VM on the hypervisor with the most) */
                                memory_mb_free: number;
                                memory_mb_total: number;
                                /** @description memory of the machines it holds */
                                memory_mb_used: number;
                                name: string;
                                /** @description vCPUs it offers to machines */
                                vcpu_total: number;
                                /** @description vCPUs of the machines it holds */
                                vcpu_used: number;
                            }[];
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/compute/vm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * VMs of all customers with filters
         * @description Needs the `view_compute` permission.
         *
         *     Needs the `view_compute` permission.
         */
        get: {
            parameters: {
                query?: {
                    customer_id?: number;
                    include_deleted?: boolean;
                    limit?: number;
                    location_id?: number;
                    page?: number;
                    /** @description name contains, or exact public IP */
                    search?: string;
                    status?: "Creating" | "Running" | "Stopped" | "Suspended" | "Error" | "Deleting" | "Deleted";
                    tier_id?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                block_storage: {
                                    size_gb: number;
                                    tier_id: number;
                                } | null;
                                block_storage_machine_id: number | null;
                                cpu: number;
                                /** Format: date-time */
                                created_at: string;
                                customer_id: number;
                                deleted_at: string | null;
                                disk_gb: number;
                                error: {
                                    /** @enum {string} */
                                    action: "create" | "start" | "stop" | "delete" | "suspend" | "resume";
                                    message: string;
                                } | null;
                                external_id: string | null;
                                hypervisor: string | null;
                                id: number;
                                location_id: number;
                                memory_mb: number;
                                name: string;
                                os: string;
                                pending_action: ("create" | "start" | "stop" | "delete" | "suspend" | "resume") | null;
                                public_ip: string | null;
                                /** @description the SSH keys chosen at create (the ids they had; a key deleted since stays on the VM) */
                                ssh_key_ids: number[];
                                /** @description what the guest was given of each key, as it was at create */
                                ssh_keys: {
                                    /** @description SHA256:… as ssh-keygen -l prints it */
                                    fingerprint: string;
                                    id: number;
                                    name: string;
                                }[];
                                started_at: string | null;
                                /** @enum {string} */
                                status: "Creating" | "Running" | "Stopped" | "Suspended" | "Error" | "Deleting" | "Deleted";
                                suspend_reason: string | null;
                                suspended_at: string | null;
                                /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                sync: {
                                    /** @description failed attempts in a row */
                                    attempts: number;
                                    last_error: string | null;
                                    last_error_at: string | null;
                                    next_retry_at: string | null;
                                    /**
                                     * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                     * @enum {string}
                                     */
                                    state: "synced" | "pending" | "failed";
                                };
                                tier_id: number;
                                /** Format: date-time */
                                updated_at: string;
                            }[];
                            message: string;
                            meta: {
                                limit: number;
                                page: number;
                                total: number;
                                total_pages: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/compute/vm/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One VM with its datacenter details
         * @description Needs the `view_compute` permission.
         *
         *     Needs the `view_compute` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                block_storage: {
                                    size_gb: number;
                                    tier_id: number;
                                } | null;
                                block_storage_machine_id: number | null;
                                cpu: number;
                                /** Format: date-time */
                                created_at: string;
                                customer_id: number;
                                deleted_at: string | null;
                                disk_gb: number;
                                error: {
                                    /** @enum {string} */
                                    action: "create" | "start" | "stop" | "delete" | "suspend" | "resume";
                                    message: string;
                                } | null;
                                external_id: string | null;
                                hypervisor: string | null;
                                id: number;
                                location_id: number;
                                memory_mb: number;
                                name: string;
                                os: string;
                                pending_action: ("create" | "start" | "stop" | "delete" | "suspend" | "resume") | null;
                                public_ip: string | null;
                                /** @description the SSH keys chosen at create (the ids they had; a key deleted since stays on the VM) */
                                ssh_key_ids: number[];
                                /** @description what the guest was given of each key, as it was at create */
                                ssh_keys: {
                                    /** @description SHA256:… as ssh-keygen -l prints it */
                                    fingerprint: string;
                                    id: number;
                                    name: string;
                                }[];
                                started_at: string | null;
                                /** @enum {string} */
                                status: "Creating" | "Running" | "Stopped" | "Suspended" | "Error" | "Deleting" | "Deleted";
                                suspend_reason: string | null;
                                suspended_at: string | null;
                                /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                sync: {
                                    /** @description failed attempts in a row */
                                    attempts: number;
                                    last_error: string | null;
                                    last_error_at: string | null;
                                    next_retry_at: string | null;
                                    /**
                                     * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                     * @enum {string}
                                     */
                                    state: "synced" | "pending" | "failed";
                                };
                                tier_id: number;
                                /** Format: date-time */
                                updated_at: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/coupons": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Top-up coupons
         * @description Needs the `manage_coupons` permission.
         *
         *     Needs the `manage_coupons` permission.
         */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                code: string;
                                /** Format: date-time */
                                created_at: string;
                                description: string;
                                id: number;
                                is_active: boolean;
                                max_bonus: number | null;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                min_deposit: number;
                                type: "PERCENT" | "FIXED";
                                /** Format: date-time */
                                updated_at: string;
                                usage_limit: number | null;
                                used_count: number;
                                valid_from: string | null;
                                valid_until: string | null;
                                /** @description percent (PERCENT) or amount (FIXED) */
                                value: number;
                            }[];
                            message: string;
                            meta: {
                                limit: number;
                                page: number;
                                total: number;
                                total_pages: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a top-up coupon
         * @description Needs the `manage_coupons` permission.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description case-insensitive, unique */
                        code: string;
                        description?: string;
                        is_active?: boolean;
                        max_bonus?: number | null;
                        /** @description at most 2 decimals, 0 or more, at most 1000000000 */
                        min_deposit?: number;
                        type: "PERCENT" | "FIXED";
                        usage_limit?: number | null;
                        valid_from?: string | null;
                        valid_until?: string | null;
                        /** @description percent (PERCENT, ≤ 100) or amount (FIXED); at most 2 decimals, above 0, at most 1000000000 */
                        value: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                code: string;
                                /** Format: date-time */
                                created_at: string;
                                description: string;
                                id: number;
                                is_active: boolean;
                                max_bonus: number | null;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                min_deposit: number;
                                type: "PERCENT" | "FIXED";
                                /** Format: date-time */
                                updated_at: string;
                                usage_limit: number | null;
                                used_count: number;
                                valid_from: string | null;
                                valid_until: string | null;
                                /** @description percent (PERCENT) or amount (FIXED) */
                                value: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/coupons/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One coupon
         * @description Needs the `manage_coupons` permission.
         *
         *     Needs the `manage_coupons` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                code: string;
                                /** Format: date-time */
                                created_at: string;
                                description: string;
                                id: number;
                                is_active: boolean;
                                max_bonus: number | null;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                min_deposit: number;
                                type: "PERCENT" | "FIXED";
                                /** Format: date-time */
                                updated_at: string;
                                usage_limit: number | null;
                                used_count: number;
                                valid_from: string | null;
                                valid_until: string | null;
                                /** @description percent (PERCENT) or amount (FIXED) */
                                value: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Delete a coupon (it stops working; redemptions are kept)
         * @description Needs the `manage_coupons` permission.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: null;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Change a coupon
         * @description Needs the `manage_coupons` permission.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description case-insensitive, unique */
                        code?: string;
                        description?: string;
                        is_active?: boolean;
                        max_bonus?: number | null;
                        /** @description at most 2 decimals, 0 or more, at most 1000000000 */
                        min_deposit?: number;
                        type?: "PERCENT" | "FIXED";
                        usage_limit?: number | null;
                        valid_from?: string | null;
                        valid_until?: string | null;
                        /** @description percent (PERCENT, ≤ 100) or amount (FIXED); at most 2 decimals, above 0, at most 1000000000 */
                        value?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                code: string;
                                /** Format: date-time */
                                created_at: string;
                                description: string;
                                id: number;
                                is_active: boolean;
                                max_bonus: number | null;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                min_deposit: number;
                                type: "PERCENT" | "FIXED";
                                /** Format: date-time */
                                updated_at: string;
                                usage_limit: number | null;
                                used_count: number;
                                valid_from: string | null;
                                valid_until: string | null;
                                /** @description percent (PERCENT) or amount (FIXED) */
                                value: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/backoffice/customer": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Customers, newest first; search matches e-mail and name
         * @description Needs the `view_users` permission.
         *
         *     Needs the `view_users` permission.
         */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page?: number;
                    search?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description P = Personal, B = Business */
                                account_type: "P" | "B";
                                billing_type: string;
                                /** Format: date-time */
                                created_at: string;
                                email: string;
                                first_name: string;
                                full_name: string;
                                id: number;
                                is_2fa_active: boolean;
                                is_active: boolean;
                                is_identity_verified: boolean;
                                is_registration_completed: boolean;
                                last_name: string;
                                suspended_at: string | null;
                            }[];
                            message: string;
                            meta: {
                                limit: number;
                                page: number;
                                total: number;
                                total_pages: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/customer/{customer_id}/balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add to or deduct from a customer's wallet (real money; audited)
         * @description DEDUCT may not take actual_balance below zero (402 INSUFFICIENT_BALANCE). Idempotency-Key (optional): the same key and body replay the first answer; another body is a 409.
         *
         *     Needs the `manage_balance` permission.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description 1 to 255 visible ASCII characters. A repeat with the same key and body replays the first answer and does nothing else; the same key with another body is 409 IDEMPOTENCY_KEY_REUSED; a repeat while the first request still runs waits up to 15 s for its answer (then 409 IDEMPOTENCY_IN_PROGRESS). */
                    "idempotency-key"?: string;
                };
                path: {
                    customer_id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description at most 2 decimals, above 0, at most 1000000000 */
                        amount: number;
                        description: string;
                        type: "ADD" | "DEDUCT";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                actual_balance: number;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                current_balance: number;
                                customer_id: number;
                                entry: {
                                    /** @description the part that moved real money (actual_balance) */
                                    actual_amount: number;
                                    /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                    actual_balance_after: number;
                                    /** @description signed: credits positive, debits negative */
                                    amount: number;
                                    /** @description the part that moved bonus credit */
                                    bonus_amount: number;
                                    /** Format: date-time */
                                    created_at: string;
                                    created_by_admin_id: number | null;
                                    /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                    current_balance_after: number;
                                    description: string;
                                    id: number;
                                    reference_id: string;
                                    reference_type: string;
                                    /** @description BalanceLogAdd (top-up), BalanceLogBonus (coupon), BalanceLogAdjustAdd / BalanceLogAdjustDeduct (manual), BalanceLogCharge (usage) */
                                    type: string;
                                };
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/customer/{customer_id}/credit-history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A customer's wallet ledger, newest first
         * @description Needs the `view_billing` permission.
         *
         *     Needs the `view_billing` permission.
         */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page?: number;
                };
                header?: never;
                path: {
                    customer_id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description the part that moved real money (actual_balance) */
                                actual_amount: number;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                actual_balance_after: number;
                                /** @description signed: credits positive, debits negative */
                                amount: number;
                                /** @description the part that moved bonus credit */
                                bonus_amount: number;
                                /** Format: date-time */
                                created_at: string;
                                created_by_admin_id: number | null;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                current_balance_after: number;
                                description: string;
                                id: number;
                                reference_id: string;
                                reference_type: string;
                                /** @description BalanceLogAdd (top-up), BalanceLogBonus (coupon), BalanceLogAdjustAdd / BalanceLogAdjustDeduct (manual), BalanceLogCharge (usage) */
                                type: string;
                            }[];
                            message: string;
                            meta: {
                                limit: number;
                                page: number;
                                total: number;
                                total_pages: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/customer/{customer_id}/topup-minimum": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set (or with null, clear) a customer's own minimum top-up
         * @description Needs the `edit_users` permission.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    customer_id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        minimum_amount: number | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                currency: string;
                                is_default: boolean;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                minimum_amount: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/customer/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One customer with quotas and max_session
         * @description Needs the `view_users` permission.
         *
         *     Needs the `view_users` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description P = Personal, B = Business */
                                account_type: "P" | "B";
                                account_type_description: string;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                actual_balance: number;
                                /** @description PREPAID or POSTPAID */
                                billing_type: string;
                                block_storage_limit: number;
                                business: {
                                    address?: string | null;
                                    industry?: string | null;
                                    name?: string | null;
                                    phone?: string | null;
                                    tax_number?: string | null;
                                    website_url?: string | null;
                                };
                                /** Format: date-time */
                                created_at: string;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                current_balance: number;
                                do_not_suspend_until: string | null;
                                email: string;
                                email_verified_at: string | null;
                                first_name: string;
                                full_name: string;
                                id: number;
                                is_2fa_active: boolean;
                                is_active: boolean;
                                is_identity_verified: boolean;
                                is_registration_completed: boolean;
                                last_name: string;
                                loadbalancer_limit: number;
                                max_session: number;
                                notification_setting: {
                                    allow_billing_reminder: boolean;
                                    allow_marketing_email: boolean;
                                };
                                object_storage_limit: number;
                                personal: {
                                    address: string | null;
                                    city_custom: string | null;
                                    city_id: string | null;
                                    country_id: string | null;
                                    district_id: string | null;
                                    phone: string | null;
                                    province_custom: string | null;
                                    province_id: string | null;
                                    tax_number: string | null;
                                };
                                private_ip_limit: number;
                                public_ip_limit: number;
                                reward_first_top_up: boolean;
                                reward_referral: boolean;
                                suspend_reason: string | null;
                                suspended_at: string | null;
                                unread_count: number;
                                /** Format: date-time */
                                updated_at: string;
                                vm_limit: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Changes billing type, activation, identity verification, do_not_suspend_until, max_session or quotas (audited)
         * @description Needs the `edit_users` permission.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        billing_type?: "PREPAID" | "POSTPAID";
                        block_storage_limit?: number;
                        do_not_suspend_until?: string | null;
                        is_active?: boolean;
                        is_identity_verified?: boolean;
                        loadbalancer_limit?: number;
                        max_session?: number;
                        object_storage_limit?: number;
                        private_ip_limit?: number;
                        public_ip_limit?: number;
                        vm_limit?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description P = Personal, B = Business */
                                account_type: "P" | "B";
                                account_type_description: string;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                actual_balance: number;
                                /** @description PREPAID or POSTPAID */
                                billing_type: string;
                                block_storage_limit: number;
                                business: {
                                    address?: string | null;
                                    industry?: string | null;
                                    name?: string | null;
                                    phone?: string | null;
                                    tax_number?: string | null;
                                    website_url?: string | null;
                                };
                                /** Format: date-time */
                                created_at: string;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                current_balance: number;
                                do_not_suspend_until: string | null;
                                email: string;
                                email_verified_at: string | null;
                                first_name: string;
                                full_name: string;
                                id: number;
                                is_2fa_active: boolean;
                                is_active: boolean;
                                is_identity_verified: boolean;
                                is_registration_completed: boolean;
                                last_name: string;
                                loadbalancer_limit: number;
                                max_session: number;
                                notification_setting: {
                                    allow_billing_reminder: boolean;
                                    allow_marketing_email: boolean;
                                };
                                object_storage_limit: number;
                                personal: {
                                    address: string | null;
                                    city_custom: string | null;
                                    city_id: string | null;
                                    country_id: string | null;
                                    district_id: string | null;
                                    phone: string | null;
                                    province_custom: string | null;
                                    province_id: string | null;
                                    tax_number: string | null;
                                };
                                private_ip_limit: number;
                                public_ip_limit: number;
                                reward_first_top_up: boolean;
                                reward_referral: boolean;
                                suspend_reason: string | null;
                                suspended_at: string | null;
                                unread_count: number;
                                /** Format: date-time */
                                updated_at: string;
                                vm_limit: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/backoffice/customer/{id}/api-tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A customer's API tokens, newest first (no secrets)
         * @description Needs the `view_users` permission.
         *
         *     Needs the `view_users` permission.
         */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page?: number;
                };
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                expires_at: string;
                                id: number;
                                last_used_at: string | null;
                                last_used_ip: string | null;
                                name: string;
                                /** @description the first characters of the secret, to tell tokens apart */
                                prefix: string;
                                revoked_at: string | null;
                                scopes: string[];
                                state: "active" | "expired" | "revoked";
                            }[];
                            message: string;
                            meta: {
                                limit: number;
                                page: number;
                                total: number;
                                total_pages: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/customer/{id}/api-tokens/{token_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revokes one of a customer's API tokens: its next request answers 401
         * @description Needs the `manage_sessions` permission.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                    token_id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                expires_at: string;
                                id: number;
                                last_used_at: string | null;
                                last_used_ip: string | null;
                                name: string;
                                /** @description the first characters of the secret, to tell tokens apart */
                                prefix: string;
                                revoked_at: string | null;
                                scopes: string[];
                                state: "active" | "expired" | "revoked";
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/customer/{id}/device-sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The customer's live device sessions
         * @description Needs the `view_users` permission.
         *
         *     Needs the `view_users` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                id: string;
                                /** @description a session an admin opened by impersonation */
                                impersonated: boolean;
                                ip: string | null;
                                /** Format: date-time */
                                last_access_at: string;
                                user_agent: string | null;
                            }[];
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/customer/{id}/device-sessions/{sid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Ends one device session, or every one with sid 'all'; the next request with it gets 401
         * @description Needs the `manage_sessions` permission.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                    /** @description a device session id, or 'all' for every session of the customer */
                    sid: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                revoked: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/customer/{id}/impersonate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Opens a customer session marked with the admin (customer cookies are set); every request in it is audited
         * @description Needs the `impersonate_user` permission.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                customer_id: number;
                                /** Format: date-time */
                                expires_at: string;
                                session_id: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/dashboard/billing/deposit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Deposit totals with the trend of the last 12 months
         * @description Deposits are top-up credits in the wallet ledger (BalanceLogAdd, real money, in the month they were credited); bonus credit is not a deposit.
         *
         *     Needs the `view_dashboard` permission.
         *
         *     Needs the `view_dashboard` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description all time */
                                count: number;
                                currency: string;
                                last_12_months_count: number;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                last_12_months_total: number;
                                /** @description all-time totals per source */
                                sources: {
                                    count: number;
                                    /** @description topup (paid top-up invoices); later also postpaid */
                                    source: string;
                                    /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                    total: number;
                                }[];
                                this_month_count: number;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                this_month_total: number;
                                /** @description IANA zone of the months (PLATFORM_TIME_ZONE) */
                                time_zone: string;
                                /** @description all time */
                                total: number;
                                /** @description the last 12 months, oldest first, ending with the current month; a month without money is 0 */
                                trend: {
                                    count: number;
                                    /** @description YYYY-MM, a calendar month of the platform time zone */
                                    month: string;
                                    /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                    total: number;
                                }[];
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/dashboard/billing/revenue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Paid invoice totals with the trend of the last 12 months
         * @description Revenue is money received on paid invoices (today: top-up invoices, total_amount with fees, in the month of paid_at). Months are calendar months of PLATFORM_TIME_ZONE.
         *
         *     Needs the `view_dashboard` permission.
         *
         *     Needs the `view_dashboard` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description all time */
                                count: number;
                                currency: string;
                                last_12_months_count: number;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                last_12_months_total: number;
                                /** @description all-time totals per source */
                                sources: {
                                    count: number;
                                    /** @description topup (paid top-up invoices); later also postpaid */
                                    source: string;
                                    /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                    total: number;
                                }[];
                                this_month_count: number;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                this_month_total: number;
                                /** @description IANA zone of the months (PLATFORM_TIME_ZONE) */
                                time_zone: string;
                                /** @description all time */
                                total: number;
                                /** @description the last 12 months, oldest first, ending with the current month; a month without money is 0 */
                                trend: {
                                    count: number;
                                    /** @description YYYY-MM, a calendar month of the platform time zone */
                                    month: string;
                                    /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                    total: number;
                                }[];
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/dashboard/customer/insight": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Customers, active wallet balance, VMs, customers who deposited this month
         * @description Needs the `view_dashboard` permission.
         *
         *     Needs the `view_dashboard` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description accounts with is_active */
                                active_customers: number;
                                /** @description VMs in status Running */
                                active_vms: number;
                                currency: string;
                                /** @description distinct customers with a top-up credited (BalanceLogAdd) in the current month */
                                customers_deposited_this_month: number;
                                /** @description YYYY-MM, a calendar month of the platform time zone */
                                month: string;
                                /** @description every customer account */
                                registered_customers: number;
                                /** @description IANA zone of the months (PLATFORM_TIME_ZONE) */
                                time_zone: string;
                                /** @description Σ actual_balance (real money) of active customers */
                                total_active_wallet_actual_balance: number;
                                /** @description Σ current_balance (spendable: real money plus bonus credit) of active customers */
                                total_active_wallet_balance: number;
                                /** @description VMs that exist (any status but Deleted) */
                                total_vms: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/dashboard/hv/ip-occupation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Public IP addresses rented versus available, per location
         * @description Needs the `view_dashboard` permission.
         *
         *     Needs the `view_dashboard` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                available: number;
                                locations: {
                                    available: number;
                                    location_code: string;
                                    location_id: number;
                                    location_name: string;
                                    /** @description rented / total × 100, 2 decimals */
                                    occupation_percent: number;
                                    /** @description addresses held by VMs */
                                    rented: number;
                                    /** @description addresses in the pool */
                                    total: number;
                                }[];
                                /** @description rented / total × 100, 2 decimals */
                                occupation_percent: number;
                                /** @description addresses held by VMs */
                                rented: number;
                                /** @description addresses in the pool */
                                total: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/dashboard/hv/total-vm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * VMs by RAM, CPU or OS, optionally in one location
         * @description Needs the `view_dashboard` permission.
         *
         *     Needs the `view_dashboard` permission.
         */
        get: {
            parameters: {
                query?: {
                    /** @description default ram */
                    group_by?: "ram" | "cpu" | "os";
                    location_id?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                group_by: "ram" | "cpu" | "os";
                                items: {
                                    count: number;
                                    /** @description memory in MB, vCPU count, or OS image */
                                    key: string;
                                    label: string;
                                }[];
                                location_id: number | null;
                                /** @description VMs counted (any status but Deleted) */
                                total: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/history/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One month of the audit log or the wallet ledger as CSV or JSON lines, streamed
         * @description Needs the `export_history` permission.
         *
         *     Needs the `export_history` permission.
         */
        get: {
            parameters: {
                query: {
                    format?: "csv" | "jsonl";
                    /** @description audit: the audit log; ledger: the wallet ledger of every customer */
                    kind: "audit" | "ledger";
                    /** @description YYYY-MM, a year between 1970 and 9999 */
                    month: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description CSV (a header line, then one line per row) or JSON lines (one object per row), in id order */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/x-ndjson": string;
                        "text/csv": string;
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/x-ndjson": components["schemas"]["ErrorBody"];
                        "text/csv": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/x-ndjson": components["schemas"]["ErrorBody"];
                        "text/csv": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/x-ndjson": components["schemas"]["ErrorBody"];
                        "text/csv": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Registered jobs with their queue, schedule (as the job queue holds it, and when it fires next) and last runs
         * @description Needs the `view_jobs` permission.
         *
         *     Needs the `view_jobs` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                description: string | null;
                                last_run: {
                                    error: string | null;
                                    finished_at: string | null;
                                    /** Format: date-time */
                                    started_at: string;
                                    /** @description running, succeeded or failed */
                                    status: string;
                                    /** @description worker or manual */
                                    trigger: string;
                                } | null;
                                /** @description the latest job the schedule created, read from the job queue (kept about 7 days) */
                                last_scheduled_run: {
                                    /** Format: date-time */
                                    created_at: string;
                                    finished_at: string | null;
                                    started_at: string | null;
                                    /** @description pg-boss's state of the job: created, retry, active, completed, cancelled or failed */
                                    state: string;
                                } | null;
                                name: string;
                                /** @description when the schedule the job queue holds fires next; null when it holds none */
                                next_run_at: string | null;
                                queue: string;
                                schedule: string | null;
                                schedule_registered: boolean | null;
                            }[];
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/jobs/{name}/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Runs a job now in this process (Super Admin only) and reports the run
         * @description Needs the `manage_jobs` permission.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    name: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                error: string | null;
                                finished_at: string | null;
                                /** Format: date-time */
                                started_at: string;
                                /** @description running, succeeded or failed */
                                status: string;
                                /** @description worker or manual */
                                trigger: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/network/load-balancers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Load balancers of all customers, newest first (Deleted ones only with status=Deleted)
         * @description Needs the `view_network` permission.
         *
         *     Needs the `view_network` permission.
         */
        get: {
            parameters: {
                query?: {
                    customer_id?: number;
                    limit?: number;
                    page?: number;
                    status?: "Creating" | "Active" | "Error" | "Deleting" | "Deleted";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description the public address, once Active */
                                address: string | null;
                                algorithm: "round_robin" | "least_connections";
                                /** Format: date-time */
                                created_at: string;
                                customer_id: number;
                                forwarding_rules: {
                                    entry_port: number;
                                    entry_protocol: "http" | "https" | "tcp" | "udp";
                                    target_port: number;
                                    target_protocol: "http" | "https" | "tcp" | "udp";
                                }[];
                                health_check: {
                                    path: string | null;
                                    port: number;
                                    protocol: string;
                                } | null;
                                /** @description sync.last_error */
                                last_error: string | null;
                                location_id: number;
                                name: string;
                                price_key: string;
                                status: "Creating" | "Active" | "Error" | "Deleting" | "Deleted";
                                /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                sync: {
                                    /** @description failed attempts in a row */
                                    attempts: number;
                                    last_error: string | null;
                                    last_error_at: string | null;
                                    next_retry_at: string | null;
                                    /**
                                     * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                     * @enum {string}
                                     */
                                    state: "synced" | "pending" | "failed";
                                };
                                /** @description true once the datacenter applied the latest change (sync.state synced) */
                                synced: boolean;
                                target_vm_ids: number[];
                                /** Format: date-time */
                                updated_at: string;
                                uuid: string;
                            }[];
                            message: string;
                            meta: {
                                limit: number;
                                page: number;
                                total: number;
                                total_pages: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/network/private": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Private networks of all customers with their IP occupation
         * @description Needs the `view_network` permission.
         *
         *     Needs the `view_network` permission.
         */
        get: {
            parameters: {
                query?: {
                    customer_id?: number;
                    include_deleted?: boolean;
                    limit?: number;
                    location_id?: number;
                    page?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description prefix length, 16 to 24 */
                                cidr: number;
                                /** Format: date-time */
                                created_at: string;
                                customer_id: number;
                                deleted_at: string | null;
                                external_id: string | null;
                                /** @description the network's .1, never handed to an instance */
                                gateway: string;
                                id: number;
                                /** @description IP occupation of the network */
                                ip_usage: {
                                    /** @description host addresses: all but network, gateway and broadcast */
                                    total: number;
                                    /** @description addresses assigned (or being attached or detached) */
                                    used: number;
                                };
                                last_error: string | null;
                                location_id: number;
                                name: string;
                                /** @description network address, chosen by the service inside 10.0.0.0/8 */
                                network_ip: string;
                                pending_action: ("create" | "delete") | null;
                                /**
                                 * @description the stored status
                                 * @enum {string}
                                 */
                                status: "Creating" | "Active" | "Deleted";
                                /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                sync: {
                                    /** @description failed attempts in a row */
                                    attempts: number;
                                    last_error: string | null;
                                    last_error_at: string | null;
                                    next_retry_at: string | null;
                                    /**
                                     * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                     * @enum {string}
                                     */
                                    state: "synced" | "pending" | "failed";
                                };
                                /** Format: date-time */
                                updated_at: string;
                                /**
                                 * Format: uuid
                                 * @description path identifier
                                 */
                                uuid: string;
                            }[];
                            message: string;
                            meta: {
                                limit: number;
                                page: number;
                                total: number;
                                total_pages: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/network/private/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One private network (deleted ones too) with its addresses
         * @description Needs the `view_network` permission.
         *
         *     Needs the `view_network` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    uuid: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description prefix length, 16 to 24 */
                                cidr: number;
                                /** Format: date-time */
                                created_at: string;
                                customer_id: number;
                                deleted_at: string | null;
                                external_id: string | null;
                                /** @description the network's .1, never handed to an instance */
                                gateway: string;
                                id: number;
                                /** @description IP occupation of the network */
                                ip_usage: {
                                    /** @description host addresses: all but network, gateway and broadcast */
                                    total: number;
                                    /** @description addresses assigned (or being attached or detached) */
                                    used: number;
                                };
                                ips: {
                                    /** Format: date-time */
                                    created_at: string;
                                    id: number;
                                    instance_id: number;
                                    /** @enum {string} */
                                    instance_type: "VM";
                                    ip: string;
                                    /** @description the instance's name when it was assigned */
                                    ip_description: string;
                                    /** @description true once the datacenter has attached the address */
                                    is_registered: boolean;
                                    pending_action: ("attach" | "detach") | null;
                                    pos_x: number;
                                    pos_y: number;
                                    /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                    sync: {
                                        /** @description failed attempts in a row */
                                        attempts: number;
                                        last_error: string | null;
                                        last_error_at: string | null;
                                        next_retry_at: string | null;
                                        /**
                                         * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                         * @enum {string}
                                         */
                                        state: "synced" | "pending" | "failed";
                                    };
                                }[];
                                last_error: string | null;
                                location_id: number;
                                name: string;
                                /** @description network address, chosen by the service inside 10.0.0.0/8 */
                                network_ip: string;
                                pending_action: ("create" | "delete") | null;
                                /**
                                 * @description the stored status
                                 * @enum {string}
                                 */
                                status: "Creating" | "Active" | "Deleted";
                                /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                sync: {
                                    /** @description failed attempts in a row */
                                    attempts: number;
                                    last_error: string | null;
                                    last_error_at: string | null;
                                    next_retry_at: string | null;
                                    /**
                                     * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                     * @enum {string}
                                     */
                                    state: "synced" | "pending" | "failed";
                                };
                                /** Format: date-time */
                                updated_at: string;
                                /**
                                 * Format: uuid
                                 * @description path identifier
                                 */
                                uuid: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/node/tier-type": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Creates a tier type (name unique, case-insensitive)
         * @description Needs the `manage_tiers` permission.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description: string;
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                description: string;
                                id: number;
                                name: string;
                                /** Format: date-time */
                                updated_at: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/node/tier-type/{id}/update": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replaces a tier type
         * @description Needs the `manage_tiers` permission.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description: string;
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                description: string;
                                id: number;
                                name: string;
                                /** Format: date-time */
                                updated_at: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/node/tier-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Tier types (machine families)
         * @description Needs the `view_tiers` permission.
         *
         *     Needs the `view_tiers` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                description: string;
                                id: number;
                                name: string;
                                /** Format: date-time */
                                updated_at: string;
                            }[];
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/pricing/cancel/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Cancels a waiting price change before its date (400 once the date has passed)
         * @description Needs the `manage_pricing` permission.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                applied_at: string | null;
                                cancelled_at: string | null;
                                component_id: number | null;
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                effective_date: string;
                                /** @description monthly_price / 730, 6 decimals */
                                hourly_price: number;
                                id: number;
                                item_type: "component" | "tier" | "storage_tier";
                                location_id: number;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                monthly_price: number;
                                price_key: string;
                                status: "waiting" | "applied" | "cancelled";
                                storage_tier_id: number | null;
                                tier_id: number | null;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/pricing/location/{location_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Component prices in force now in a location
         * @description Needs the `view_pricing` permission.
         *
         *     Needs the `view_pricing` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    location_id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description the component priced: a tier row names vm_tier for its package; null only for a storage tier row */
                                component_id: number | null;
                                /** Format: date-time */
                                effective_from: string;
                                /** @description the price version */
                                id: number;
                                location_id: number;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                monthly_price: number;
                                /** @description component:<id>, tier:<id> (the package), tier:<id>:component:<id> (a tier's own price of a component), storage_tier:<id> */
                                price_key: string;
                                /** @description monthly_price / 730, 6 decimals */
                                price_per_hour: number;
                                storage_tier_id: number | null;
                                tier_id: number | null;
                            }[];
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/pricing/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Revenue impact of a price change before it is scheduled (nothing is saved)
         * @description The item is named as for the schedule routes: `location_id` + `component_id` (update-loc), `tier_id` with an optional `location_id` (update-tier), or `storage_tier_id` + `location_id` (update-storage-tier). The same checks apply: a known item and location, a price with at most 2 decimals, an `effective_date` (default now) not in the past.
         *
         *     Needs the `view_pricing` permission.
         *
         *     Needs the `view_pricing` permission.
         */
        get: {
            parameters: {
                query: {
                    component_id?: number;
                    /** @description ISO 8601 instant with an explicit offset (Z or ±hh:mm), e.g. 2030-01-31T17:00:00Z; between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z in UTC; fractions of a second are kept to the millisecond */
                    effective_date?: string;
                    location_id?: number;
                    /** @description per month (per unit); the hourly price is monthly / 730 (6 decimals); at most 2 decimals, 0 or more, at most 1000000000 */
                    monthly_price: number;
                    storage_tier_id?: number;
                    tier_id?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description units of the key they use (VMs, IPs, GB) */
                                affected_quantity: number;
                                /** @description running resources priced by this key in the location */
                                affected_resources: number;
                                current_monthly_price: number | null;
                                /** Format: date-time */
                                effective_date: string;
                                location_id: number;
                                /** @description the same with the new price */
                                monthly_revenue_after: number;
                                /** @description the location's running resources at today's prices */
                                monthly_revenue_before: number;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                monthly_revenue_change: number;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                new_monthly_price: number;
                                price_key: string;
                                running_resources: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/pricing/schedule": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Price schedules by effective date (default: the waiting ones)
         * @description Needs the `view_pricing` permission.
         *
         *     Needs the `view_pricing` permission.
         */
        get: {
            parameters: {
                query?: {
                    status?: "waiting" | "applied" | "cancelled";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                applied_at: string | null;
                                cancelled_at: string | null;
                                component_id: number | null;
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                effective_date: string;
                                /** @description monthly_price / 730, 6 decimals */
                                hourly_price: number;
                                id: number;
                                item_type: "component" | "tier" | "storage_tier";
                                location_id: number;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                monthly_price: number;
                                price_key: string;
                                status: "waiting" | "applied" | "cancelled";
                                storage_tier_id: number | null;
                                tier_id: number | null;
                            }[];
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/pricing/schedule/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One price schedule
         * @description Needs the `view_pricing` permission.
         *
         *     Needs the `view_pricing` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                applied_at: string | null;
                                cancelled_at: string | null;
                                component_id: number | null;
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                effective_date: string;
                                /** @description monthly_price / 730, 6 decimals */
                                hourly_price: number;
                                id: number;
                                item_type: "component" | "tier" | "storage_tier";
                                location_id: number;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                monthly_price: number;
                                price_key: string;
                                status: "waiting" | "applied" | "cancelled";
                                storage_tier_id: number | null;
                                tier_id: number | null;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/pricing/schedule/{id}/impact": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Revenue impact of a price change: resources touched, monthly revenue before and after
         * @description Needs the `view_pricing` permission.
         *
         *     Needs the `view_pricing` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description units of the key they use (VMs, IPs, GB) */
                                affected_quantity: number;
                                /** @description running resources priced by this key in the location */
                                affected_resources: number;
                                current_monthly_price: number | null;
                                /** Format: date-time */
                                effective_date: string;
                                location_id: number;
                                /** @description the same with the new price */
                                monthly_revenue_after: number;
                                /** @description the location's running resources at today's prices */
                                monthly_revenue_before: number;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                monthly_revenue_change: number;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                new_monthly_price: number;
                                price_key: string;
                                running_resources: number;
                                schedule_id: number;
                                status: "waiting" | "applied" | "cancelled";
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/pricing/storage-tiers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Block storage tier prices (per GB-month) in force now
         * @description Needs the `view_pricing` permission.
         *
         *     Needs the `view_pricing` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description the component priced: a tier row names vm_tier for its package; null only for a storage tier row */
                                component_id: number | null;
                                /** Format: date-time */
                                effective_from: string;
                                /** @description the price version */
                                id: number;
                                location_id: number;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                monthly_price: number;
                                /** @description component:<id>, tier:<id> (the package), tier:<id>:component:<id> (a tier's own price of a component), storage_tier:<id> */
                                price_key: string;
                                /** @description monthly_price / 730, 6 decimals */
                                price_per_hour: number;
                                storage_tier_id: number | null;
                                tier_id: number | null;
                            }[];
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/pricing/tiers/{tier_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The tier's own prices in force now in each location: its package (vm_tier) and each component it prices itself
         * @description Needs the `view_pricing` permission.
         *
         *     Needs the `view_pricing` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    tier_id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description the component priced: a tier row names vm_tier for its package; null only for a storage tier row */
                                component_id: number | null;
                                /** Format: date-time */
                                effective_from: string;
                                /** @description the price version */
                                id: number;
                                location_id: number;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                monthly_price: number;
                                /** @description component:<id>, tier:<id> (the package), tier:<id>:component:<id> (a tier's own price of a component), storage_tier:<id> */
                                price_key: string;
                                /** @description monthly_price / 730, 6 decimals */
                                price_per_hour: number;
                                storage_tier_id: number | null;
                                tier_id: number | null;
                            }[];
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/pricing/update-loc": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Schedules a component's price in a location
         * @description Needs the `manage_pricing` permission.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        component_id: number;
                        /**
                         * Format: date-time
                         * @description ISO 8601 instant with an explicit offset (Z or ±hh:mm), e.g. 2030-01-31T17:00:00Z; between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z in UTC; fractions of a second are kept to the millisecond
                         */
                        effective_date: string;
                        location_id: number;
                        /** @description per month (per unit); the hourly price is monthly / 730 (6 decimals); at most 2 decimals, 0 or more, at most 1000000000 */
                        monthly_price: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                applied_at: string | null;
                                cancelled_at: string | null;
                                component_id: number | null;
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                effective_date: string;
                                /** @description monthly_price / 730, 6 decimals */
                                hourly_price: number;
                                id: number;
                                item_type: "component" | "tier" | "storage_tier";
                                location_id: number;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                monthly_price: number;
                                price_key: string;
                                status: "waiting" | "applied" | "cancelled";
                                storage_tier_id: number | null;
                                tier_id: number | null;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/pricing/update-storage-tier": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Schedules a block storage tier's price per GB-month in a location
         * @description Needs the `manage_pricing` permission.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * Format: date-time
                         * @description ISO 8601 instant with an explicit offset (Z or ±hh:mm), e.g. 2030-01-31T17:00:00Z; between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z in UTC; fractions of a second are kept to the millisecond
                         */
                        effective_date: string;
                        location_id: number;
                        /** @description per month (per unit); the hourly price is monthly / 730 (6 decimals); at most 2 decimals, 0 or more, at most 1000000000 */
                        monthly_price: number;
                        storage_tier_id: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                applied_at: string | null;
                                cancelled_at: string | null;
                                component_id: number | null;
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                effective_date: string;
                                /** @description monthly_price / 730, 6 decimals */
                                hourly_price: number;
                                id: number;
                                item_type: "component" | "tier" | "storage_tier";
                                location_id: number;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                monthly_price: number;
                                price_key: string;
                                status: "waiting" | "applied" | "cancelled";
                                storage_tier_id: number | null;
                                tier_id: number | null;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/pricing/update-tier": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Schedules a tier's own price of a component (default: its package) in a location
         * @description location_id defaults to the tier's own location and is required for a tier offered everywhere. Without component_id, or with the vm_tier component, the tier's package price (key tier:<id>); with any other component, the tier's own price of it (key tier:<id>:component:<id>), which takes precedence over the location's price of that component for the VMs on the tier.
         *
         *     Needs the `manage_pricing` permission.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        component_id?: number;
                        /**
                         * Format: date-time
                         * @description ISO 8601 instant with an explicit offset (Z or ±hh:mm), e.g. 2030-01-31T17:00:00Z; between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z in UTC; fractions of a second are kept to the millisecond
                         */
                        effective_date: string;
                        location_id?: number;
                        /** @description per month (per unit); the hourly price is monthly / 730 (6 decimals); at most 2 decimals, 0 or more, at most 1000000000 */
                        monthly_price: number;
                        tier_id: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                applied_at: string | null;
                                cancelled_at: string | null;
                                component_id: number | null;
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                effective_date: string;
                                /** @description monthly_price / 730, 6 decimals */
                                hourly_price: number;
                                id: number;
                                item_type: "component" | "tier" | "storage_tier";
                                location_id: number;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                monthly_price: number;
                                price_key: string;
                                status: "waiting" | "applied" | "cancelled";
                                storage_tier_id: number | null;
                                tier_id: number | null;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/redeem-codes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Redeem codes, newest first
         * @description Needs the `manage_coupons` permission.
         *
         *     Needs the `manage_coupons` permission.
         */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                amount: number;
                                code: string;
                                /** Format: date-time */
                                created_at: string;
                                description: string;
                                id: number;
                                is_active: boolean;
                                /** Format: date-time */
                                updated_at: string;
                                usage_limit: number | null;
                                used_count: number;
                                valid_from: string | null;
                                valid_until: string | null;
                            }[];
                            message: string;
                            meta: {
                                limit: number;
                                page: number;
                                total: number;
                                total_pages: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a redeem code
         * @description Needs the `manage_coupons` permission.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description bonus credit granted by one redemption; at most 2 decimals, above 0, at most 1000000000 */
                        amount: number;
                        /** @description letters, digits, "-" or "_"; case-insensitive, unique */
                        code: string;
                        description?: string;
                        is_active?: boolean;
                        usage_limit?: number | null;
                        valid_from?: string | null;
                        valid_until?: string | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                amount: number;
                                code: string;
                                /** Format: date-time */
                                created_at: string;
                                description: string;
                                id: number;
                                is_active: boolean;
                                /** Format: date-time */
                                updated_at: string;
                                usage_limit: number | null;
                                used_count: number;
                                valid_from: string | null;
                                valid_until: string | null;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/redeem-codes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One redeem code
         * @description Needs the `manage_coupons` permission.
         *
         *     Needs the `manage_coupons` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                amount: number;
                                code: string;
                                /** Format: date-time */
                                created_at: string;
                                description: string;
                                id: number;
                                is_active: boolean;
                                /** Format: date-time */
                                updated_at: string;
                                usage_limit: number | null;
                                used_count: number;
                                valid_from: string | null;
                                valid_until: string | null;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Delete a redeem code (it stops working; redemptions are kept)
         * @description Needs the `manage_coupons` permission.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: null;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Change a redeem code
         * @description Needs the `manage_coupons` permission.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description bonus credit granted by one redemption; at most 2 decimals, above 0, at most 1000000000 */
                        amount?: number;
                        /** @description letters, digits, "-" or "_"; case-insensitive, unique */
                        code?: string;
                        description?: string;
                        is_active?: boolean;
                        usage_limit?: number | null;
                        valid_from?: string | null;
                        valid_until?: string | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                amount: number;
                                code: string;
                                /** Format: date-time */
                                created_at: string;
                                description: string;
                                id: number;
                                is_active: boolean;
                                /** Format: date-time */
                                updated_at: string;
                                usage_limit: number | null;
                                used_count: number;
                                valid_from: string | null;
                                valid_until: string | null;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/backoffice/release-notes/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every release note, newest first (any status)
         * @description Needs the `manage_announcements` permission.
         *
         *     Needs the `manage_announcements` permission.
         *
         *     Needs the `manage_announcements` permission.
         */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page?: number;
                    /** @description Draft (new, not visible) → Published (visible to customers) → Withdrawn (hidden again; may be published again) */
                    status?: "Draft" | "Published" | "Withdrawn";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                created_by_admin_id: number | null;
                                id: number;
                                message: string;
                                /** @description a scheduled publication not yet made */
                                publish_at: string | null;
                                published_at: string | null;
                                /** @description Draft (new, not visible) → Published (visible to customers) → Withdrawn (hidden again; may be published again) */
                                status: "Draft" | "Published" | "Withdrawn";
                                title: string;
                                /** Format: date-time */
                                updated_at: string;
                                withdrawn_at: string | null;
                            }[];
                            message: string;
                            meta: {
                                limit: number;
                                page: number;
                                total: number;
                                total_pages: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a release note (Draft: not visible to customers)
         * @description Needs the `manage_announcements` permission.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        message: string;
                        title: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                created_by_admin_id: number | null;
                                id: number;
                                message: string;
                                /** @description a scheduled publication not yet made */
                                publish_at: string | null;
                                published_at: string | null;
                                /** @description Draft (new, not visible) → Published (visible to customers) → Withdrawn (hidden again; may be published again) */
                                status: "Draft" | "Published" | "Withdrawn";
                                title: string;
                                /** Format: date-time */
                                updated_at: string;
                                withdrawn_at: string | null;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/release-notes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One release note
         * @description Needs the `manage_announcements` permission.
         *
         *     Needs the `manage_announcements` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                created_by_admin_id: number | null;
                                id: number;
                                message: string;
                                /** @description a scheduled publication not yet made */
                                publish_at: string | null;
                                published_at: string | null;
                                /** @description Draft (new, not visible) → Published (visible to customers) → Withdrawn (hidden again; may be published again) */
                                status: "Draft" | "Published" | "Withdrawn";
                                title: string;
                                /** Format: date-time */
                                updated_at: string;
                                withdrawn_at: string | null;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        /**
         * Replace the title and message of a release note (its status stays)
         * @description Needs the `manage_announcements` permission.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        message: string;
                        title: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                created_by_admin_id: number | null;
                                id: number;
                                message: string;
                                /** @description a scheduled publication not yet made */
                                publish_at: string | null;
                                published_at: string | null;
                                /** @description Draft (new, not visible) → Published (visible to customers) → Withdrawn (hidden again; may be published again) */
                                status: "Draft" | "Published" | "Withdrawn";
                                title: string;
                                /** Format: date-time */
                                updated_at: string;
                                withdrawn_at: string | null;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        post?: never;
        /**
         * Delete a release note (in any status)
         * @description Needs the `manage_announcements` permission.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/release-notes/{id}/publish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Publish a release note: visible to customers (now, or at publish_at)
         * @description No body publishes now. `{ "publish_at": "<instant>" }` in the future schedules it: the status stays and `publish_at` is set until a job publishes it (checked every minute). A Published document answers 409 ALREADY_PUBLISHED.
         *
         *     Needs the `manage_announcements` permission.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": {
                        /**
                         * Format: date-time
                         * @description ISO 8601 instant with an explicit offset (Z or ±hh:mm), e.g. 2030-01-31T17:00:00Z; between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z in UTC; fractions of a second are kept to the millisecond
                         */
                        publish_at?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                created_by_admin_id: number | null;
                                id: number;
                                message: string;
                                /** @description a scheduled publication not yet made */
                                publish_at: string | null;
                                published_at: string | null;
                                /** @description Draft (new, not visible) → Published (visible to customers) → Withdrawn (hidden again; may be published again) */
                                status: "Draft" | "Published" | "Withdrawn";
                                title: string;
                                /** Format: date-time */
                                updated_at: string;
                                withdrawn_at: string | null;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/release-notes/{id}/unpublish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Withdraw a published release note (or cancel its scheduled publication)
         * @description Published → Withdrawn, hidden from customers. Neither published nor scheduled: 409 NOT_PUBLISHED.
         *
         *     Needs the `manage_announcements` permission.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                created_by_admin_id: number | null;
                                id: number;
                                message: string;
                                /** @description a scheduled publication not yet made */
                                publish_at: string | null;
                                published_at: string | null;
                                /** @description Draft (new, not visible) → Published (visible to customers) → Withdrawn (hidden again; may be published again) */
                                status: "Draft" | "Published" | "Withdrawn";
                                title: string;
                                /** Format: date-time */
                                updated_at: string;
                                withdrawn_at: string | null;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/rewards/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The first top-up and referral reward settings
         * @description Needs the `view_settings` permission.
         *
         *     Needs the `view_settings` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                first_top_up_max_bonus: number | null;
                                first_top_up_percent: number;
                                referral_max_bonus: number | null;
                                referral_percent: number;
                                /** Format: date-time */
                                updated_at: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        /**
         * Set the reward settings (a percent of 0 turns a reward off)
         * @description Needs the `manage_settings` permission.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        first_top_up_max_bonus: number | null;
                        /** @description percent of the first paid top-up (0: off) */
                        first_top_up_percent: number;
                        referral_max_bonus: number | null;
                        /** @description percent of the referred customer's first paid top-up, to the referrer (0: off) */
                        referral_percent: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                first_top_up_max_bonus: number | null;
                                first_top_up_percent: number;
                                referral_max_bonus: number | null;
                                referral_percent: number;
                                /** Format: date-time */
                                updated_at: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/setting": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Application settings
         * @description Needs the `view_settings` permission.
         *
         *     Needs the `view_settings` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                app_name: string;
                                /** @description true: the customer API answers 503 MAINTENANCE (lookups, login and payment callbacks stay open) */
                                maintenance_mode: boolean;
                                privacy_policy_url: string;
                                terms_and_conditions_url: string;
                                /** Format: date-time */
                                updated_at: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/setting/charging": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Charging thresholds
         * @description Needs the `view_settings` permission.
         *
         *     Needs the `view_settings` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                low_balance_warning_hours: number;
                                postpaid_due_days: number;
                                postpaid_suspend_grace_days: number;
                                runway_warning_hours: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        /**
         * Change the charging thresholds (runway warning, low-balance notice, postpaid due days and overdue grace)
         * @description Needs the `manage_settings` permission.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        low_balance_warning_hours: number;
                        postpaid_due_days: number;
                        postpaid_suspend_grace_days: number;
                        runway_warning_hours: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                low_balance_warning_hours: number;
                                postpaid_due_days: number;
                                postpaid_suspend_grace_days: number;
                                runway_warning_hours: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/setting/color": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Theme colors
         * @description Needs the `view_settings` permission.
         *
         *     Needs the `view_settings` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                accent_color: string;
                                error_color: string;
                                primary_color: string;
                                secondary_color: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Sets the theme colors (#RRGGBB)
         * @description Needs the `manage_settings` permission.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description hex color #RRGGBB */
                        accent_color?: string;
                        /** @description hex color #RRGGBB */
                        error_color: string;
                        /** @description hex color #RRGGBB */
                        primary_color: string;
                        /** @description hex color #RRGGBB */
                        secondary_color: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                accent_color: string;
                                error_color: string;
                                primary_color: string;
                                secondary_color: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/setting/firewall-rule-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Firewall rule types
         * @description Needs the `view_settings` permission.
         *
         *     Needs the `view_settings` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                description: string;
                                id: number;
                                name: string;
                                /** @enum {string} */
                                protocol: "tcp" | "udp" | "icmp" | "any";
                                /** Format: date-time */
                                updated_at: string;
                            }[];
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/setting/firewall-rule-types/{id}/delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Deletes a firewall rule type
         * @description Needs the `manage_settings` permission.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: null;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/setting/firewall-rule-types/{id}/update": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Replaces a firewall rule type
         * @description Needs the `manage_settings` permission.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description: string;
                        name: string;
                        protocol: "tcp" | "udp" | "icmp" | "any";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                description: string;
                                id: number;
                                name: string;
                                /** @enum {string} */
                                protocol: "tcp" | "udp" | "icmp" | "any";
                                /** Format: date-time */
                                updated_at: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/setting/firewall-rule-types/create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Creates a firewall rule type (name unique, case-insensitive)
         * @description Needs the `manage_settings` permission.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description: string;
                        name: string;
                        protocol: "tcp" | "udp" | "icmp" | "any";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                description: string;
                                id: number;
                                name: string;
                                /** @enum {string} */
                                protocol: "tcp" | "udp" | "icmp" | "any";
                                /** Format: date-time */
                                updated_at: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/setting/retention": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * How long usage records and the audit log are kept
         * @description Needs the `view_settings` permission.
         *
         *     Needs the `view_settings` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description Audit log months older than this are dropped; null: kept forever */
                                audit_log_months: number | null;
                                /** @description Usage records older than this many whole months are rolled up per meter and day, then dropped */
                                usage_raw_months: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        /**
         * Change how long usage records (rolled up per meter and day after) and the audit log are kept
         * @description Needs the `manage_settings` permission.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        audit_log_months: number | null;
                        usage_raw_months: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description Audit log months older than this are dropped; null: kept forever */
                                audit_log_months: number | null;
                                /** @description Usage records older than this many whole months are rolled up per meter and day, then dropped */
                                usage_raw_months: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/setting/staff-2fa": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Whether staff who move money must use two-factor authentication
         * @description Needs the `view_settings` permission.
         *
         *     Needs the `view_settings` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description staff whose role holds a permission that moves money must use TOTP 2FA */
                                required: boolean;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        /**
         * Require (or not) two-factor authentication of staff who move money
         * @description Needs the `manage_settings` permission.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        required: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description staff whose role holds a permission that moves money must use TOTP 2FA */
                                required: boolean;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/setting/update": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Replaces the application settings (all four fields)
         * @description Needs the `manage_settings` permission.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        app_name: string;
                        maintenance_mode: boolean;
                        /** @description absolute http(s) URL */
                        privacy_policy_url: string;
                        /** @description absolute http(s) URL */
                        terms_and_conditions_url: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                app_name: string;
                                /** @description true: the customer API answers 503 MAINTENANCE (lookups, login and payment callbacks stay open) */
                                maintenance_mode: boolean;
                                privacy_policy_url: string;
                                terms_and_conditions_url: string;
                                /** Format: date-time */
                                updated_at: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/storage/blocks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Block storage machines with hypervisor IP, capacity and use (GB)
         * @description Needs the `view_block_storage` permission.
         *
         *     Needs the `view_block_storage` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                capacity_gb: number;
                                /** Format: date-time */
                                created_at: string;
                                free_gb: number;
                                hypervisor_ip: string;
                                id: number;
                                location_id: number;
                                name: string;
                                used_gb: number;
                            }[];
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/storage/blocks/tiers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Storage tiers
         * @description Needs the `view_block_storage` permission.
         *
         *     Needs the `view_block_storage` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                description: string;
                                id: number;
                                /** @description false: not offered when creating a VM */
                                is_active: boolean;
                                name: string;
                                /** Format: date-time */
                                updated_at: string;
                            }[];
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/storage/blocks/tiers/{id}/update": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Renames or describes a storage tier
         * @description Needs the `manage_block_storage` permission.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description: string;
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                description: string;
                                id: number;
                                /** @description false: not offered when creating a VM */
                                is_active: boolean;
                                name: string;
                                /** Format: date-time */
                                updated_at: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/backoffice/storage/blocks/tiers/{id}/update-status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Toggles the tier ON/OFF (OFF: not offered for new VMs)
         * @description Needs the `manage_block_storage` permission.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                description: string;
                                id: number;
                                /** @description false: not offered when creating a VM */
                                is_active: boolean;
                                name: string;
                                /** Format: date-time */
                                updated_at: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/backoffice/ticket/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Tickets, latest activity first (Archived only when asked for)
         * @description Needs the `view_tickets` permission.
         *
         *     Needs the `view_tickets` permission.
         *
         *     Needs the `view_tickets` permission.
         */
        get: {
            parameters: {
                query?: {
                    assigned_admin_id?: number;
                    customer_id?: number;
                    limit?: number;
                    page?: number;
                    priority?: "Low" | "Medium" | "High";
                    /** @description in the title or the customer e-mail */
                    search?: string;
                    /** @description default: every status but Archived */
                    status?: "Open" | "In Progress" | "Closed" | "Archived";
                    unassigned?: boolean;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                archived_at: string | null;
                                assigned_admin: {
                                    id: number;
                                    name: string;
                                } | null;
                                closed_at: string | null;
                                /** Format: date-time */
                                created_at: string;
                                customer: {
                                    email: string;
                                    full_name: string;
                                    id: number;
                                };
                                id: number;
                                /** Format: date-time */
                                last_message_at: string;
                                message_count: number;
                                priority: "Low" | "Medium" | "High";
                                /** @description Open → In Progress (staff reply or assignment) → Closed (customer or staff) → Archived (staff) */
                                status: "Open" | "In Progress" | "Closed" | "Archived";
                                title: string;
                                /** Format: date-time */
                                updated_at: string;
                            }[];
                            message: string;
                            meta: {
                                limit: number;
                                page: number;
                                total: number;
                                total_pages: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/ticket/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One ticket
         * @description Needs the `view_tickets` permission.
         *
         *     Needs the `view_tickets` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                archived_at: string | null;
                                assigned_admin: {
                                    id: number;
                                    name: string;
                                } | null;
                                closed_at: string | null;
                                /** Format: date-time */
                                created_at: string;
                                customer: {
                                    email: string;
                                    full_name: string;
                                    id: number;
                                };
                                id: number;
                                /** Format: date-time */
                                last_message_at: string;
                                message_count: number;
                                priority: "Low" | "Medium" | "High";
                                /** @description Open → In Progress (staff reply or assignment) → Closed (customer or staff) → Archived (staff) */
                                status: "Open" | "In Progress" | "Closed" | "Archived";
                                title: string;
                                /** Format: date-time */
                                updated_at: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/ticket/{id}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Archive a closed ticket
         * @description Needs the `manage_tickets` permission.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                archived_at: string | null;
                                assigned_admin: {
                                    id: number;
                                    name: string;
                                } | null;
                                closed_at: string | null;
                                /** Format: date-time */
                                created_at: string;
                                customer: {
                                    email: string;
                                    full_name: string;
                                    id: number;
                                };
                                id: number;
                                /** Format: date-time */
                                last_message_at: string;
                                message_count: number;
                                priority: "Low" | "Medium" | "High";
                                /** @description Open → In Progress (staff reply or assignment) → Closed (customer or staff) → Archived (staff) */
                                status: "Open" | "In Progress" | "Closed" | "Archived";
                                title: string;
                                /** Format: date-time */
                                updated_at: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/backoffice/ticket/{id}/assignment": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Hand the ticket to an admin who may see tickets (an Open ticket becomes In Progress)
         * @description Needs the `manage_tickets` permission.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        admin_id: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                archived_at: string | null;
                                assigned_admin: {
                                    id: number;
                                    name: string;
                                } | null;
                                closed_at: string | null;
                                /** Format: date-time */
                                created_at: string;
                                customer: {
                                    email: string;
                                    full_name: string;
                                    id: number;
                                };
                                id: number;
                                /** Format: date-time */
                                last_message_at: string;
                                message_count: number;
                                priority: "Low" | "Medium" | "High";
                                /** @description Open → In Progress (staff reply or assignment) → Closed (customer or staff) → Archived (staff) */
                                status: "Open" | "In Progress" | "Closed" | "Archived";
                                title: string;
                                /** Format: date-time */
                                updated_at: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/backoffice/ticket/{id}/attachments/{attachment_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a file of a ticket
         * @description Needs the `view_tickets` permission.
         *
         *     Needs the `view_tickets` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    attachment_id: string;
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the file, as an attachment download */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/octet-stream": string;
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/octet-stream": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/octet-stream": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/octet-stream": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/ticket/{id}/close": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Close the ticket
         * @description Needs the `manage_tickets` permission.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                archived_at: string | null;
                                assigned_admin: {
                                    id: number;
                                    name: string;
                                } | null;
                                closed_at: string | null;
                                /** Format: date-time */
                                created_at: string;
                                customer: {
                                    email: string;
                                    full_name: string;
                                    id: number;
                                };
                                id: number;
                                /** Format: date-time */
                                last_message_at: string;
                                message_count: number;
                                priority: "Low" | "Medium" | "High";
                                /** @description Open → In Progress (staff reply or assignment) → Closed (customer or staff) → Archived (staff) */
                                status: "Open" | "In Progress" | "Closed" | "Archived";
                                title: string;
                                /** Format: date-time */
                                updated_at: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/backoffice/ticket/{id}/conversations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * All messages of the ticket, oldest first (data is the list; the ticket is GET /ticket/{id})
         * @description Needs the `view_tickets` permission.
         *
         *     Needs the `view_tickets` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description every message of the ticket, oldest first */
                            data: {
                                attachments: {
                                    content_type: string;
                                    filename: string;
                                    /** Format: uuid */
                                    id: string;
                                    sha256: string;
                                    size_bytes: number;
                                    /** @description download path (same side of the API as the answer) */
                                    url: string;
                                }[];
                                /** Format: date-time */
                                created_at: string;
                                id: number;
                                message: string;
                                sender: {
                                    id: number;
                                    name: string;
                                };
                                sender_type: "customer" | "admin";
                                ticket_id: number;
                            }[];
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/ticket/{id}/priority": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Set the priority
         * @description Needs the `manage_tickets` permission.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        priority: "Low" | "Medium" | "High";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                archived_at: string | null;
                                assigned_admin: {
                                    id: number;
                                    name: string;
                                } | null;
                                closed_at: string | null;
                                /** Format: date-time */
                                created_at: string;
                                customer: {
                                    email: string;
                                    full_name: string;
                                    id: number;
                                };
                                id: number;
                                /** Format: date-time */
                                last_message_at: string;
                                message_count: number;
                                priority: "Low" | "Medium" | "High";
                                /** @description Open → In Progress (staff reply or assignment) → Closed (customer or staff) → Archived (staff) */
                                status: "Open" | "In Progress" | "Closed" | "Archived";
                                title: string;
                                /** Format: date-time */
                                updated_at: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/backoffice/ticket/{id}/reply": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reply to the customer, optionally with files (an Open ticket becomes In Progress)
         * @description Up to 3 files of at most 2 MiB each: PNG, JPEG, GIF, WebP, PDF, plain text or CSV; the bytes must match the type.
         *
         *     Needs the `manage_tickets` permission.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        attachments?: {
                            /** @description standard base64; at most 2097152 bytes decoded; the bytes must be of the stated type */
                            content_base64: string;
                            /** @description image/png, image/jpeg, image/gif, image/webp, application/pdf, text/plain, text/csv */
                            content_type: string;
                            /** @description its extension must fit the content type */
                            filename: string;
                        }[];
                        message: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                attachments: {
                                    content_type: string;
                                    filename: string;
                                    /** Format: uuid */
                                    id: string;
                                    sha256: string;
                                    size_bytes: number;
                                    /** @description download path (same side of the API as the answer) */
                                    url: string;
                                }[];
                                /** Format: date-time */
                                created_at: string;
                                id: number;
                                message: string;
                                sender: {
                                    id: number;
                                    name: string;
                                };
                                sender_type: "customer" | "admin";
                                ticket_id: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/ticket/insight": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Ticket counts by status
         * @description Needs the `view_tickets` permission.
         *
         *     Needs the `view_tickets` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                archived: number;
                                closed: number;
                                in_progress: number;
                                open: number;
                                total: number;
                                /** @description Open and In Progress tickets nobody is assigned to */
                                unassigned: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/ticket/sse/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Live ticket stream (Server-Sent Events)
         * @description Each message: `id: <event id>` and `data: {"type": NEW_TICKET | NEW_REPLY | STATUS_CHANGED | ASSIGNED | PRIORITY_CHANGED, "payload": {...}}`. Reconnect with `Last-Event-ID` to get what was missed; an id that is unknown, older than the 7 days kept, or more than 1,000 events back gets `event: reset` (`{"type": "RESET", "payload": {"reason", "last_event_id"}}`): reload the lists, then carry on. A comment line is sent every 15 s (SSE_HEARTBEAT_MS); at each, the stream ends if the session ended, the admin was deleted or their role no longer holds view_tickets. Works across API processes (PostgreSQL LISTEN/NOTIFY). A request without `Accept: text/event-stream` is 406 NOT_ACCEPTABLE.
         *
         *     Needs the `view_tickets` permission.
         *
         *     Needs the `view_tickets` permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description text/event-stream */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": string;
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                406: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/tier/{id}/delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Retires the tier: no new VMs; running VMs and price history stay
         * @description Needs the `manage_tiers` permission.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                cpu: number;
                                /** @description percent of its vCPUs a VM of the tier may use */
                                cpu_limit: number;
                                /** Format: date-time */
                                created_at: string;
                                /** @description set when retired */
                                deleted_at: string | null;
                                disk_gb: number;
                                id: number;
                                /** @description status: false hides it from new VMs; running VMs keep renewing */
                                is_visible: boolean;
                                /** @description What a load balancer on VMs of this tier may do; an absent key means no bound */
                                loadbalance_config: {
                                    algorithms?: ("round_robin" | "least_connections")[];
                                    max_forwarding_rules?: number;
                                    max_targets?: number;
                                    protocols?: ("http" | "https" | "tcp" | "udp")[];
                                };
                                loadbalance_enabled: boolean;
                                /** @description null: offered in every location where it has a price */
                                location_id: number | null;
                                memory_mb: number;
                                name: string;
                                tier_type_id: number;
                                tier_type_name: string;
                                /** Format: date-time */
                                updated_at: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/tier/{id}/toggle-loadbalance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Switches the load-balancer capability
         * @description Needs the `manage_tiers` permission.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                cpu: number;
                                /** @description percent of its vCPUs a VM of the tier may use */
                                cpu_limit: number;
                                /** Format: date-time */
                                created_at: string;
                                /** @description set when retired */
                                deleted_at: string | null;
                                disk_gb: number;
                                id: number;
                                /** @description status: false hides it from new VMs; running VMs keep renewing */
                                is_visible: boolean;
                                /** @description What a load balancer on VMs of this tier may do; an absent key means no bound */
                                loadbalance_config: {
                                    algorithms?: ("round_robin" | "least_connections")[];
                                    max_forwarding_rules?: number;
                                    max_targets?: number;
                                    protocols?: ("http" | "https" | "tcp" | "udp")[];
                                };
                                loadbalance_enabled: boolean;
                                /** @description null: offered in every location where it has a price */
                                location_id: number | null;
                                memory_mb: number;
                                name: string;
                                tier_type_id: number;
                                tier_type_name: string;
                                /** Format: date-time */
                                updated_at: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/backoffice/tier/{id}/toggle-status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Shows or hides the tier for new VMs (running VMs keep renewing)
         * @description Needs the `manage_tiers` permission.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                cpu: number;
                                /** @description percent of its vCPUs a VM of the tier may use */
                                cpu_limit: number;
                                /** Format: date-time */
                                created_at: string;
                                /** @description set when retired */
                                deleted_at: string | null;
                                disk_gb: number;
                                id: number;
                                /** @description status: false hides it from new VMs; running VMs keep renewing */
                                is_visible: boolean;
                                /** @description What a load balancer on VMs of this tier may do; an absent key means no bound */
                                loadbalance_config: {
                                    algorithms?: ("round_robin" | "least_connections")[];
                                    max_forwarding_rules?: number;
                                    max_targets?: number;
                                    protocols?: ("http" | "https" | "tcp" | "udp")[];
                                };
                                loadbalance_enabled: boolean;
                                /** @description null: offered in every location where it has a price */
                                location_id: number | null;
                                memory_mb: number;
                                name: string;
                                tier_type_id: number;
                                tier_type_name: string;
                                /** Format: date-time */
                                updated_at: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/backoffice/tier/{id}/update-cpu": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Sets the CPU limit (percent of the vCPUs)
         * @description Needs the `manage_tiers` permission.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        cpu_limit: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                cpu: number;
                                /** @description percent of its vCPUs a VM of the tier may use */
                                cpu_limit: number;
                                /** Format: date-time */
                                created_at: string;
                                /** @description set when retired */
                                deleted_at: string | null;
                                disk_gb: number;
                                id: number;
                                /** @description status: false hides it from new VMs; running VMs keep renewing */
                                is_visible: boolean;
                                /** @description What a load balancer on VMs of this tier may do; an absent key means no bound */
                                loadbalance_config: {
                                    algorithms?: ("round_robin" | "least_connections")[];
                                    max_forwarding_rules?: number;
                                    max_targets?: number;
                                    protocols?: ("http" | "https" | "tcp" | "udp")[];
                                };
                                loadbalance_enabled: boolean;
                                /** @description null: offered in every location where it has a price */
                                location_id: number | null;
                                memory_mb: number;
                                name: string;
                                tier_type_id: number;
                                tier_type_name: string;
                                /** Format: date-time */
                                updated_at: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/backoffice/tier/{id}/update-loadbalance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Sets what a load balancer on the tier may do
         * @description Needs the `manage_tiers` permission.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description What a load balancer on VMs of this tier may do; an absent key means no bound */
                        loadbalance_config: {
                            algorithms?: ("round_robin" | "least_connections")[];
                            max_forwarding_rules?: number;
                            max_targets?: number;
                            protocols?: ("http" | "https" | "tcp" | "udp")[];
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                cpu: number;
                                /** @description percent of its vCPUs a VM of the tier may use */
                                cpu_limit: number;
                                /** Format: date-time */
                                created_at: string;
                                /** @description set when retired */
                                deleted_at: string | null;
                                disk_gb: number;
                                id: number;
                                /** @description status: false hides it from new VMs; running VMs keep renewing */
                                is_visible: boolean;
                                /** @description What a load balancer on VMs of this tier may do; an absent key means no bound */
                                loadbalance_config: {
                                    algorithms?: ("round_robin" | "least_connections")[];
                                    max_forwarding_rules?: number;
                                    max_targets?: number;
                                    protocols?: ("http" | "https" | "tcp" | "udp")[];
                                };
                                loadbalance_enabled: boolean;
                                /** @description null: offered in every location where it has a price */
                                location_id: number | null;
                                memory_mb: number;
                                name: string;
                                tier_type_id: number;
                                tier_type_name: string;
                                /** Format: date-time */
                                updated_at: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/backoffice/tier/create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Creates a tier; it is offered once it has a price (POST /pricing/update-tier)
         * @description Needs the `manage_tiers` permission.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        cpu: number;
                        /** @description percent of the vCPUs */
                        cpu_limit: number;
                        disk_gb: number;
                        location_id?: number | null;
                        memory_mb: number;
                        name: string;
                        tier_type_id: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                cpu: number;
                                /** @description percent of its vCPUs a VM of the tier may use */
                                cpu_limit: number;
                                /** Format: date-time */
                                created_at: string;
                                /** @description set when retired */
                                deleted_at: string | null;
                                disk_gb: number;
                                id: number;
                                /** @description status: false hides it from new VMs; running VMs keep renewing */
                                is_visible: boolean;
                                /** @description What a load balancer on VMs of this tier may do; an absent key means no bound */
                                loadbalance_config: {
                                    algorithms?: ("round_robin" | "least_connections")[];
                                    max_forwarding_rules?: number;
                                    max_targets?: number;
                                    protocols?: ("http" | "https" | "tcp" | "udp")[];
                                };
                                loadbalance_enabled: boolean;
                                /** @description null: offered in every location where it has a price */
                                location_id: number | null;
                                memory_mb: number;
                                name: string;
                                tier_type_id: number;
                                tier_type_name: string;
                                /** Format: date-time */
                                updated_at: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backoffice/tier/tiers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * All tiers (retired ones with include_retired=true)
         * @description Needs the `view_tiers` permission.
         *
         *     Needs the `view_tiers` permission.
         */
        get: {
            parameters: {
                query?: {
                    /** @description also list retired tiers */
                    include_retired?: boolean;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                cpu: number;
                                /** @description percent of its vCPUs a VM of the tier may use */
                                cpu_limit: number;
                                /** Format: date-time */
                                created_at: string;
                                /** @description set when retired */
                                deleted_at: string | null;
                                disk_gb: number;
                                id: number;
                                /** @description status: false hides it from new VMs; running VMs keep renewing */
                                is_visible: boolean;
                                /** @description What a load balancer on VMs of this tier may do; an absent key means no bound */
                                loadbalance_config: {
                                    algorithms?: ("round_robin" | "least_connections")[];
                                    max_forwarding_rules?: number;
                                    max_targets?: number;
                                    protocols?: ("http" | "https" | "tcp" | "udp")[];
                                };
                                loadbalance_enabled: boolean;
                                /** @description null: offered in every location where it has a price */
                                location_id: number | null;
                                memory_mb: number;
                                name: string;
                                tier_type_id: number;
                                tier_type_name: string;
                                /** Format: date-time */
                                updated_at: string;
                            }[];
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/billing/deposit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * My deposits, newest first
         * @description API tokens: needs the `billing:read` scope.
         */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                actions: {
                                    qr_string: string | null;
                                    redirect_url: string | null;
                                    va_number: string | null;
                                };
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                amount: number;
                                /** @description the coupon bonus quoted when the deposit was made (credited when it is paid, see bonus_status) */
                                bonus_amount: number;
                                /**
                                 * @description none: no coupon; reserved: a use of the coupon is held for this deposit; released: the deposit failed or expired and gave the use back; credited: the bonus was paid; forfeited: paid after the use was released, when the coupon had none left: no bonus
                                 * @enum {unknown}
                                 */
                                bonus_status: "none" | "reserved" | "released" | "credited" | "forfeited";
                                coupon_code: string | null;
                                /** Format: date-time */
                                created_at: string;
                                credited_amount: number | null;
                                credited_at: string | null;
                                credited_bonus: number | null;
                                currency: string;
                                /** Format: date-time */
                                expires_at: string;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                fee: number;
                                gateway_name: string;
                                /** Format: uuid */
                                invoice_id: string;
                                method_code: string;
                                method_name: string;
                                method_type: string;
                                paid_at: string | null;
                                payment_url: string | null;
                                /** @description Pending → Paid (verified success), Failed (gateway failure), Expired (TOPUP_EXPIRY_HOURS passed, or the gateway expired it) */
                                status: "Pending" | "Paid" | "Failed" | "Expired";
                                /** @description amount + fee: what the gateway charges */
                                total_amount: number;
                            }[];
                            message: string;
                            meta: {
                                limit: number;
                                page: number;
                                total: number;
                                total_pages: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Top up the wallet: creates a Pending invoice and its payment at the gateway
         * @description Idempotency-Key (optional): the same key and body replay the first answer without creating anything; the same key with another body is a 409.
         *
         *     API tokens: needs the `billing:write` scope.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description 1 to 255 visible ASCII characters. A repeat with the same key and body replays the first answer and does nothing else; the same key with another body is 409 IDEMPOTENCY_KEY_REUSED; a repeat while the first request still runs waits up to 15 s for its answer (then 409 IDEMPOTENCY_IN_PROGRESS). */
                    "idempotency-key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description What the wallet receives; fees are added on top; at most 2 decimals, above 0, at most 1000000000 */
                        amount: number;
                        coupon_code?: string | null;
                        gateway_name: string;
                        method_code: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                actions: {
                                    qr_string: string | null;
                                    redirect_url: string | null;
                                    va_number: string | null;
                                };
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                amount: number;
                                /** @description the coupon bonus quoted when the deposit was made (credited when it is paid, see bonus_status) */
                                bonus_amount: number;
                                /**
                                 * @description none: no coupon; reserved: a use of the coupon is held for this deposit; released: the deposit failed or expired and gave the use back; credited: the bonus was paid; forfeited: paid after the use was released, when the coupon had none left: no bonus
                                 * @enum {unknown}
                                 */
                                bonus_status: "none" | "reserved" | "released" | "credited" | "forfeited";
                                coupon_code: string | null;
                                /** Format: date-time */
                                created_at: string;
                                credited_amount: number | null;
                                credited_at: string | null;
                                credited_bonus: number | null;
                                currency: string;
                                /** Format: date-time */
                                expires_at: string;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                fee: number;
                                gateway_name: string;
                                /** Format: uuid */
                                invoice_id: string;
                                method_code: string;
                                method_name: string;
                                method_type: string;
                                paid_at: string | null;
                                payment_url: string;
                                /** @description Pending → Paid (verified success), Failed (gateway failure), Expired (TOPUP_EXPIRY_HOURS passed, or the gateway expired it) */
                                status: "Pending" | "Paid" | "Failed" | "Expired";
                                /** @description amount + fee: what the gateway charges */
                                total_amount: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/billing/deposit/{invoice_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One of my deposits
         * @description API tokens: needs the `billing:read` scope.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    invoice_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                actions: {
                                    qr_string: string | null;
                                    redirect_url: string | null;
                                    va_number: string | null;
                                };
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                amount: number;
                                /** @description the coupon bonus quoted when the deposit was made (credited when it is paid, see bonus_status) */
                                bonus_amount: number;
                                /**
                                 * @description none: no coupon; reserved: a use of the coupon is held for this deposit; released: the deposit failed or expired and gave the use back; credited: the bonus was paid; forfeited: paid after the use was released, when the coupon had none left: no bonus
                                 * @enum {unknown}
                                 */
                                bonus_status: "none" | "reserved" | "released" | "credited" | "forfeited";
                                coupon_code: string | null;
                                /** Format: date-time */
                                created_at: string;
                                credited_amount: number | null;
                                credited_at: string | null;
                                credited_bonus: number | null;
                                currency: string;
                                /** Format: date-time */
                                expires_at: string;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                fee: number;
                                gateway_name: string;
                                /** Format: uuid */
                                invoice_id: string;
                                method_code: string;
                                method_name: string;
                                method_type: string;
                                paid_at: string | null;
                                payment_url: string | null;
                                /** @description Pending → Paid (verified success), Failed (gateway failure), Expired (TOPUP_EXPIRY_HOURS passed, or the gateway expired it) */
                                status: "Pending" | "Paid" | "Failed" | "Expired";
                                /** @description amount + fee: what the gateway charges */
                                total_amount: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/billing/deposit/export/pdf": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * My deposits as a PDF statement
         * @description API tokens: needs the `billing:read` scope.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description PDF document */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/pdf": string;
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/pdf": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/billing/invoice/{invoice_id}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Any of my invoices as PDF: a postpaid invoice, or a top-up invoice (its receipt once paid)
         * @description File name invoice_<number>.pdf for a postpaid invoice, invoice_<invoice id>.pdf for a top-up. Another customer's invoice is a 404.
         *
         *     API tokens: needs the `billing:read` scope.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description invoice UUID */
                    invoice_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description PDF document */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/pdf": string;
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/pdf": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/pdf": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/billing/payment-methods": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Payment methods of every gateway, with their fees
         * @description API tokens: needs the `billing:read` scope.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                fee_flat: number;
                                /** @description Percent of the deposit added as a fee (2 decimals, written exactly) */
                                fee_percent: number;
                                gateway_name: string;
                                method_code: string;
                                name: string;
                                type: "VIRTUAL_ACCOUNT" | "QRIS" | "EWALLET" | "CARD";
                            }[];
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/billing/postpaid/invoices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * My postpaid invoices, newest first
         * @description API tokens: needs the `billing:read` scope.
         */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page?: number;
                    status?: "UNPAID" | "OVERDUE" | "PAID";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                amount_due: number;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                amount_paid: number;
                                currency: string;
                                customer_id: number;
                                /** Format: date-time */
                                due_at: string;
                                invoice_id: string;
                                /** Format: date-time */
                                issued_at: string;
                                /** @description PP-YYYYMM-<customer> */
                                number: string;
                                overdue_at: string | null;
                                paid_at: string | null;
                                paid_note: string | null;
                                /** Format: date-time */
                                period_end: string;
                                /** Format: date-time */
                                period_start: string;
                                status: "UNPAID" | "OVERDUE" | "PAID";
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                subtotal: number;
                            }[];
                            message: string;
                            meta: {
                                limit: number;
                                page: number;
                                total: number;
                                total_pages: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/billing/postpaid/invoices/{invoice_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One invoice with its lines (a line per resource and period)
         * @description API tokens: needs the `billing:read` scope.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description invoice UUID */
                    invoice_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                amount_due: number;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                amount_paid: number;
                                currency: string;
                                customer_id: number;
                                /** Format: date-time */
                                due_at: string;
                                invoice_id: string;
                                /** Format: date-time */
                                issued_at: string;
                                lines: {
                                    /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                    amount: number;
                                    description: string;
                                    /** @description clock hours with usage */
                                    hours: number;
                                    /** Format: date-time */
                                    period_end: string;
                                    /** Format: date-time */
                                    period_start: string;
                                    resource_id: string;
                                    resource_type: string;
                                    /** @description exact usage (6 decimals) */
                                    usage_amount: number;
                                }[];
                                /** @description PP-YYYYMM-<customer> */
                                number: string;
                                overdue_at: string | null;
                                paid_at: string | null;
                                paid_note: string | null;
                                /** Format: date-time */
                                period_end: string;
                                /** Format: date-time */
                                period_start: string;
                                status: "UNPAID" | "OVERDUE" | "PAID";
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                subtotal: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/billing/postpaid/invoices/{invoice_id}/pay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pay an invoice: the wallet first, a gateway payment link for the remainder
         * @description method_code and gateway_name are needed only when the wallet does not cover the invoice (400 PAYMENT_METHOD_REQUIRED otherwise). The link is a top-up of at least the minimum top-up; once it is paid the invoice becomes PAID and anything above the remainder stays in the wallet. One open payment per invoice: the same request while its link is open answers that payment again (nothing more is taken); a payment naming one of its invoices with others is 409 PAYMENT_IN_PROGRESS. Idempotency-Key (optional).
         *
         *     API tokens: needs the `billing:write` scope.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description 1 to 255 visible ASCII characters. A repeat with the same key and body replays the first answer and does nothing else; the same key with another body is 409 IDEMPOTENCY_KEY_REUSED; a repeat while the first request still runs waits up to 15 s for its answer (then 409 IDEMPOTENCY_IN_PROGRESS). */
                    "idempotency-key"?: string;
                };
                path: {
                    /** @description invoice UUID */
                    invoice_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        gateway_name?: string;
                        method_code?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                invoices: {
                                    /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                    amount_due: number;
                                    /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                    amount_paid: number;
                                    currency: string;
                                    customer_id: number;
                                    /** Format: date-time */
                                    due_at: string;
                                    invoice_id: string;
                                    /** Format: date-time */
                                    issued_at: string;
                                    /** @description PP-YYYYMM-<customer> */
                                    number: string;
                                    overdue_at: string | null;
                                    paid_at: string | null;
                                    paid_note: string | null;
                                    /** Format: date-time */
                                    period_end: string;
                                    /** Format: date-time */
                                    period_start: string;
                                    status: "UNPAID" | "OVERDUE" | "PAID";
                                    /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                    subtotal: number;
                                }[];
                                payment: {
                                    actions: {
                                        qr_string: string | null;
                                        redirect_url: string | null;
                                        va_number: string | null;
                                    };
                                    /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                    amount: number;
                                    currency: string;
                                    /** Format: date-time */
                                    expires_at: string;
                                    gateway_name: string;
                                    /** @description the gateway top-up invoice that pays the remainder */
                                    invoice_id: string;
                                    method_code: string;
                                    payment_url: string;
                                    status: string;
                                    /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                    total_amount: number;
                                } | null;
                                payment_id: string;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                remainder: number;
                                /** @description PENDING: the gateway part is still to be paid at payment.payment_url */
                                status: "PAID" | "PENDING";
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                total: number;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                wallet_amount: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/billing/postpaid/invoices/unpaid": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * My invoices with status UNPAID or OVERDUE
         * @description API tokens: needs the `billing:read` scope.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                amount_due: number;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                amount_paid: number;
                                currency: string;
                                customer_id: number;
                                /** Format: date-time */
                                due_at: string;
                                invoice_id: string;
                                /** Format: date-time */
                                issued_at: string;
                                /** @description PP-YYYYMM-<customer> */
                                number: string;
                                overdue_at: string | null;
                                paid_at: string | null;
                                paid_note: string | null;
                                /** Format: date-time */
                                period_end: string;
                                /** Format: date-time */
                                period_start: string;
                                status: "UNPAID" | "OVERDUE" | "PAID";
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                subtotal: number;
                            }[];
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/billing/postpaid/payment": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pay several invoices at once: the wallet first, one gateway payment for the remainder
         * @description One open payment per invoice, as for a single invoice: the same invoices again answer the open payment; any other set with one of them is 409 PAYMENT_IN_PROGRESS.
         *
         *     API tokens: needs the `billing:write` scope.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description 1 to 255 visible ASCII characters. A repeat with the same key and body replays the first answer and does nothing else; the same key with another body is 409 IDEMPOTENCY_KEY_REUSED; a repeat while the first request still runs waits up to 15 s for its answer (then 409 IDEMPOTENCY_IN_PROGRESS). */
                    "idempotency-key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        gateway_name: string;
                        invoice_ids: string[];
                        method_code: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                invoices: {
                                    /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                    amount_due: number;
                                    /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                    amount_paid: number;
                                    currency: string;
                                    customer_id: number;
                                    /** Format: date-time */
                                    due_at: string;
                                    invoice_id: string;
                                    /** Format: date-time */
                                    issued_at: string;
                                    /** @description PP-YYYYMM-<customer> */
                                    number: string;
                                    overdue_at: string | null;
                                    paid_at: string | null;
                                    paid_note: string | null;
                                    /** Format: date-time */
                                    period_end: string;
                                    /** Format: date-time */
                                    period_start: string;
                                    status: "UNPAID" | "OVERDUE" | "PAID";
                                    /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                    subtotal: number;
                                }[];
                                payment: {
                                    actions: {
                                        qr_string: string | null;
                                        redirect_url: string | null;
                                        va_number: string | null;
                                    };
                                    /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                    amount: number;
                                    currency: string;
                                    /** Format: date-time */
                                    expires_at: string;
                                    gateway_name: string;
                                    /** @description the gateway top-up invoice that pays the remainder */
                                    invoice_id: string;
                                    method_code: string;
                                    payment_url: string;
                                    status: string;
                                    /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                    total_amount: number;
                                } | null;
                                payment_id: string;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                remainder: number;
                                /** @description PENDING: the gateway part is still to be paid at payment.payment_url */
                                status: "PAID" | "PENDING";
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                total: number;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                wallet_amount: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/billing/postpaid/summary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Unpaid total, counts, next due date and this month so far
         * @description API tokens: needs the `billing:read` scope.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                currency: string;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                current_period_accrued: number;
                                /** Format: date-time */
                                current_period_start: string;
                                next_due_at: string | null;
                                overdue_count: number;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                total_unpaid: number;
                                unpaid_count: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/billing/redeem": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Redeem a code for bonus credit (each code once per customer)
         * @description 400 REDEEM_CODE_NOT_FOUND / _INACTIVE / _NOT_YET_VALID / _EXPIRED / _USED_UP; 409 ALREADY_REDEEMED.
         *
         *     API tokens: needs the `billing:write` scope.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        code: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                amount: number;
                                code: string;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                current_balance: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/billing/topup/minimum": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The smallest deposit this account may make
         * @description API tokens: needs the `billing:read` scope.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                currency: string;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                minimum_amount: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/billing/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * My running resources, what they cost per hour, and how many hours my balance lasts (runway)
         * @description API tokens: needs the `billing:read` scope.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                billing_type: string;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                current_balance: number;
                                /** @description what the running resources cost per hour now (6 decimals) */
                                hourly_burn: number;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                month_to_date: number;
                                running: {
                                    description: string;
                                    /** @description quantity × hourly_price (6 decimals) */
                                    hourly_cost: number;
                                    /** @description price per hour of one unit, at the price in force now (6 decimals) */
                                    hourly_price: number;
                                    quantity: number;
                                    resource_id: string;
                                    resource_type: string;
                                    /** Format: date-time */
                                    started_at: string;
                                }[];
                                runway_hours: number | null;
                                runway_warning_hours: number;
                                suspend_reason: string | null;
                                suspended_at: string | null;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/compute/block-storage-tiers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Block storage tiers offered in a location, with their prices per GB
         * @description API tokens: needs the `compute:read` scope.
         */
        get: {
            parameters: {
                query: {
                    location_id: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                description: string;
                                hourly_price_per_gb: number;
                                id: number;
                                location_id: number;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                monthly_price_per_gb: number;
                                name: string;
                            }[];
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/compute/tiers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Tiers offered in a location, with their prices
         * @description API tokens: needs the `compute:read` scope.
         */
        get: {
            parameters: {
                query: {
                    location_id: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                cpu: number;
                                cpu_limit: number;
                                disk_gb: number;
                                /** @description monthly / 730, 6 decimals */
                                hourly_price: number;
                                id: number;
                                loadbalance_enabled: boolean;
                                location_id: number;
                                memory_mb: number;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                monthly_price: number;
                                name: string;
                                tier_type_id: number;
                                tier_type_name: string;
                            }[];
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/compute/vm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * My VMs, newest first (Deleted ones with include_deleted=true)
         * @description API tokens: needs the `compute:read` scope.
         */
        get: {
            parameters: {
                query?: {
                    include_deleted?: boolean;
                    limit?: number;
                    page?: number;
                    status?: "Creating" | "Running" | "Stopped" | "Suspended" | "Error" | "Deleting" | "Deleted";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                block_storage: {
                                    size_gb: number;
                                    tier_id: number;
                                } | null;
                                cpu: number;
                                /** Format: date-time */
                                created_at: string;
                                deleted_at: string | null;
                                disk_gb: number;
                                error: {
                                    /** @enum {string} */
                                    action: "create" | "start" | "stop" | "delete" | "suspend" | "resume";
                                    message: string;
                                } | null;
                                id: number;
                                location_id: number;
                                memory_mb: number;
                                name: string;
                                os: string;
                                pending_action: ("create" | "start" | "stop" | "delete" | "suspend" | "resume") | null;
                                public_ip: string | null;
                                /** @description the SSH keys chosen at create (the ids they had; a key deleted since stays on the VM) */
                                ssh_key_ids: number[];
                                /** @description what the guest was given of each key, as it was at create */
                                ssh_keys: {
                                    /** @description SHA256:… as ssh-keygen -l prints it */
                                    fingerprint: string;
                                    id: number;
                                    name: string;
                                }[];
                                /** @enum {string} */
                                status: "Creating" | "Running" | "Stopped" | "Suspended" | "Error" | "Deleting" | "Deleted";
                                suspend_reason: string | null;
                                suspended_at: string | null;
                                /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                sync: {
                                    /** @description failed attempts in a row */
                                    attempts: number;
                                    last_error: string | null;
                                    last_error_at: string | null;
                                    next_retry_at: string | null;
                                    /**
                                     * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                     * @enum {string}
                                     */
                                    state: "synced" | "pending" | "failed";
                                };
                                tier_id: number;
                                /** Format: date-time */
                                updated_at: string;
                            }[];
                            message: string;
                            meta: {
                                limit: number;
                                page: number;
                                total: number;
                                total_pages: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Creates a VM (status Creating; Running once the datacenter has made it)
         * @description Refused while the account is suspended or its balance is below zero (402 INSUFFICIENT_BALANCE, or ACCOUNT_SUSPENDED for overdue postpaid invoices). vm_limit, public_ip_limit and block_storage_limit are enforced (409 QUOTA_EXCEEDED); an exhausted address pool or storage is 409 NO_CAPACITY.
         *
         *     API tokens: needs the `compute:write` scope.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description volume size with block_storage_tier_id (default 20) */
                        block_storage_gb?: number;
                        block_storage_tier_id?: number | null;
                        location_id: number;
                        /** @description letters, digits, dot, dash, underscore */
                        name: string;
                        /**
                         * @description default ubuntu-24.04
                         * @enum {string}
                         */
                        os?: "ubuntu-24.04" | "ubuntu-22.04" | "debian-12" | "rocky-9" | "almalinux-9";
                        /** @description attach a public IP from the location pool (default true) */
                        public_ip?: boolean;
                        /** @description ids of your SSH keys (/api/ssh-keys) the guest lets in (cloud images: their default user); an unknown id is 400 VALIDATION_FAILED naming ssh_key_ids */
                        ssh_key_ids?: number[];
                        tier_id: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                block_storage: {
                                    size_gb: number;
                                    tier_id: number;
                                } | null;
                                cpu: number;
                                /** Format: date-time */
                                created_at: string;
                                deleted_at: string | null;
                                disk_gb: number;
                                error: {
                                    /** @enum {string} */
                                    action: "create" | "start" | "stop" | "delete" | "suspend" | "resume";
                                    message: string;
                                } | null;
                                id: number;
                                location_id: number;
                                memory_mb: number;
                                name: string;
                                os: string;
                                pending_action: ("create" | "start" | "stop" | "delete" | "suspend" | "resume") | null;
                                public_ip: string | null;
                                /** @description the SSH keys chosen at create (the ids they had; a key deleted since stays on the VM) */
                                ssh_key_ids: number[];
                                /** @description what the guest was given of each key, as it was at create */
                                ssh_keys: {
                                    /** @description SHA256:… as ssh-keygen -l prints it */
                                    fingerprint: string;
                                    id: number;
                                    name: string;
                                }[];
                                /** @enum {string} */
                                status: "Creating" | "Running" | "Stopped" | "Suspended" | "Error" | "Deleting" | "Deleted";
                                suspend_reason: string | null;
                                suspended_at: string | null;
                                /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                sync: {
                                    /** @description failed attempts in a row */
                                    attempts: number;
                                    last_error: string | null;
                                    last_error_at: string | null;
                                    next_retry_at: string | null;
                                    /**
                                     * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                     * @enum {string}
                                     */
                                    state: "synced" | "pending" | "failed";
                                };
                                tier_id: number;
                                /** Format: date-time */
                                updated_at: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/compute/vm/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One of my VMs
         * @description API tokens: needs the `compute:read` scope.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                block_storage: {
                                    size_gb: number;
                                    tier_id: number;
                                } | null;
                                cpu: number;
                                /** Format: date-time */
                                created_at: string;
                                deleted_at: string | null;
                                disk_gb: number;
                                error: {
                                    /** @enum {string} */
                                    action: "create" | "start" | "stop" | "delete" | "suspend" | "resume";
                                    message: string;
                                } | null;
                                id: number;
                                location_id: number;
                                memory_mb: number;
                                name: string;
                                os: string;
                                pending_action: ("create" | "start" | "stop" | "delete" | "suspend" | "resume") | null;
                                public_ip: string | null;
                                /** @description the SSH keys chosen at create (the ids they had; a key deleted since stays on the VM) */
                                ssh_key_ids: number[];
                                /** @description what the guest was given of each key, as it was at create */
                                ssh_keys: {
                                    /** @description SHA256:… as ssh-keygen -l prints it */
                                    fingerprint: string;
                                    id: number;
                                    name: string;
                                }[];
                                /** @enum {string} */
                                status: "Creating" | "Running" | "Stopped" | "Suspended" | "Error" | "Deleting" | "Deleted";
                                suspend_reason: string | null;
                                suspended_at: string | null;
                                /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                sync: {
                                    /** @description failed attempts in a row */
                                    attempts: number;
                                    last_error: string | null;
                                    last_error_at: string | null;
                                    next_retry_at: string | null;
                                    /**
                                     * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                     * @enum {string}
                                     */
                                    state: "synced" | "pending" | "failed";
                                };
                                tier_id: number;
                                /** Format: date-time */
                                updated_at: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Deletes a VM (Deleting, then Deleted; its public IP returns to the pool)
         * @description API tokens: needs the `compute:write` scope.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                block_storage: {
                                    size_gb: number;
                                    tier_id: number;
                                } | null;
                                cpu: number;
                                /** Format: date-time */
                                created_at: string;
                                deleted_at: string | null;
                                disk_gb: number;
                                error: {
                                    /** @enum {string} */
                                    action: "create" | "start" | "stop" | "delete" | "suspend" | "resume";
                                    message: string;
                                } | null;
                                id: number;
                                location_id: number;
                                memory_mb: number;
                                name: string;
                                os: string;
                                pending_action: ("create" | "start" | "stop" | "delete" | "suspend" | "resume") | null;
                                public_ip: string | null;
                                /** @description the SSH keys chosen at create (the ids they had; a key deleted since stays on the VM) */
                                ssh_key_ids: number[];
                                /** @description what the guest was given of each key, as it was at create */
                                ssh_keys: {
                                    /** @description SHA256:… as ssh-keygen -l prints it */
                                    fingerprint: string;
                                    id: number;
                                    name: string;
                                }[];
                                /** @enum {string} */
                                status: "Creating" | "Running" | "Stopped" | "Suspended" | "Error" | "Deleting" | "Deleted";
                                suspend_reason: string | null;
                                suspended_at: string | null;
                                /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                sync: {
                                    /** @description failed attempts in a row */
                                    attempts: number;
                                    last_error: string | null;
                                    last_error_at: string | null;
                                    next_retry_at: string | null;
                                    /**
                                     * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                     * @enum {string}
                                     */
                                    state: "synced" | "pending" | "failed";
                                };
                                tier_id: number;
                                /** Format: date-time */
                                updated_at: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/compute/vm/{id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Runs the failed action of a VM in Error again (a failed create is refused like a new VM while the account is suspended or below zero: 402)
         * @description API tokens: needs the `compute:write` scope.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                block_storage: {
                                    size_gb: number;
                                    tier_id: number;
                                } | null;
                                cpu: number;
                                /** Format: date-time */
                                created_at: string;
                                deleted_at: string | null;
                                disk_gb: number;
                                error: {
                                    /** @enum {string} */
                                    action: "create" | "start" | "stop" | "delete" | "suspend" | "resume";
                                    message: string;
                                } | null;
                                id: number;
                                location_id: number;
                                memory_mb: number;
                                name: string;
                                os: string;
                                pending_action: ("create" | "start" | "stop" | "delete" | "suspend" | "resume") | null;
                                public_ip: string | null;
                                /** @description the SSH keys chosen at create (the ids they had; a key deleted since stays on the VM) */
                                ssh_key_ids: number[];
                                /** @description what the guest was given of each key, as it was at create */
                                ssh_keys: {
                                    /** @description SHA256:… as ssh-keygen -l prints it */
                                    fingerprint: string;
                                    id: number;
                                    name: string;
                                }[];
                                /** @enum {string} */
                                status: "Creating" | "Running" | "Stopped" | "Suspended" | "Error" | "Deleting" | "Deleted";
                                suspend_reason: string | null;
                                suspended_at: string | null;
                                /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                sync: {
                                    /** @description failed attempts in a row */
                                    attempts: number;
                                    last_error: string | null;
                                    last_error_at: string | null;
                                    next_retry_at: string | null;
                                    /**
                                     * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                     * @enum {string}
                                     */
                                    state: "synced" | "pending" | "failed";
                                };
                                tier_id: number;
                                /** Format: date-time */
                                updated_at: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/compute/vm/{id}/security-groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Attaches a security group to my VM (same location; attaching twice is a no-op)
         * @description API tokens: needs the `compute:write` scope.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: uuid */
                        security_group_uuid: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                description: string;
                                location_id: number;
                                name: string;
                                rules: {
                                    /** Format: date-time */
                                    created_at: string;
                                    direction: "ingress" | "egress";
                                    id: number;
                                    port_from: number | null;
                                    port_to: number | null;
                                    protocol: string;
                                    remote_cidr: string;
                                    rule_type_id: number;
                                }[];
                                /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                sync: {
                                    /** @description failed attempts in a row */
                                    attempts: number;
                                    last_error: string | null;
                                    last_error_at: string | null;
                                    next_retry_at: string | null;
                                    /**
                                     * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                     * @enum {string}
                                     */
                                    state: "synced" | "pending" | "failed";
                                };
                                /** @description true once the datacenter applied the latest change (sync.state synced) */
                                synced: boolean;
                                /** Format: date-time */
                                updated_at: string;
                                uuid: string;
                                /** @description the VMs the group is attached to */
                                vm_ids: number[];
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/compute/vm/{id}/security-groups/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Detaches a security group from my VM
         * @description API tokens: needs the `compute:write` scope.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                    uuid: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: null;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/compute/vm/{id}/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Starts a Stopped VM (pending_action start until the datacenter is done)
         * @description API tokens: needs the `compute:write` scope.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                block_storage: {
                                    size_gb: number;
                                    tier_id: number;
                                } | null;
                                cpu: number;
                                /** Format: date-time */
                                created_at: string;
                                deleted_at: string | null;
                                disk_gb: number;
                                error: {
                                    /** @enum {string} */
                                    action: "create" | "start" | "stop" | "delete" | "suspend" | "resume";
                                    message: string;
                                } | null;
                                id: number;
                                location_id: number;
                                memory_mb: number;
                                name: string;
                                os: string;
                                pending_action: ("create" | "start" | "stop" | "delete" | "suspend" | "resume") | null;
                                public_ip: string | null;
                                /** @description the SSH keys chosen at create (the ids they had; a key deleted since stays on the VM) */
                                ssh_key_ids: number[];
                                /** @description what the guest was given of each key, as it was at create */
                                ssh_keys: {
                                    /** @description SHA256:… as ssh-keygen -l prints it */
                                    fingerprint: string;
                                    id: number;
                                    name: string;
                                }[];
                                /** @enum {string} */
                                status: "Creating" | "Running" | "Stopped" | "Suspended" | "Error" | "Deleting" | "Deleted";
                                suspend_reason: string | null;
                                suspended_at: string | null;
                                /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                sync: {
                                    /** @description failed attempts in a row */
                                    attempts: number;
                                    last_error: string | null;
                                    last_error_at: string | null;
                                    next_retry_at: string | null;
                                    /**
                                     * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                     * @enum {string}
                                     */
                                    state: "synced" | "pending" | "failed";
                                };
                                tier_id: number;
                                /** Format: date-time */
                                updated_at: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/compute/vm/{id}/stop": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stops a Running VM (pending_action stop until the datacenter is done)
         * @description API tokens: needs the `compute:write` scope.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                block_storage: {
                                    size_gb: number;
                                    tier_id: number;
                                } | null;
                                cpu: number;
                                /** Format: date-time */
                                created_at: string;
                                deleted_at: string | null;
                                disk_gb: number;
                                error: {
                                    /** @enum {string} */
                                    action: "create" | "start" | "stop" | "delete" | "suspend" | "resume";
                                    message: string;
                                } | null;
                                id: number;
                                location_id: number;
                                memory_mb: number;
                                name: string;
                                os: string;
                                pending_action: ("create" | "start" | "stop" | "delete" | "suspend" | "resume") | null;
                                public_ip: string | null;
                                /** @description the SSH keys chosen at create (the ids they had; a key deleted since stays on the VM) */
                                ssh_key_ids: number[];
                                /** @description what the guest was given of each key, as it was at create */
                                ssh_keys: {
                                    /** @description SHA256:… as ssh-keygen -l prints it */
                                    fingerprint: string;
                                    id: number;
                                    name: string;
                                }[];
                                /** @enum {string} */
                                status: "Creating" | "Running" | "Stopped" | "Suspended" | "Error" | "Deleting" | "Deleted";
                                suspend_reason: string | null;
                                suspended_at: string | null;
                                /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                sync: {
                                    /** @description failed attempts in a row */
                                    attempts: number;
                                    last_error: string | null;
                                    last_error_at: string | null;
                                    next_retry_at: string | null;
                                    /**
                                     * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                     * @enum {string}
                                     */
                                    state: "synced" | "pending" | "failed";
                                };
                                tier_id: number;
                                /** Format: date-time */
                                updated_at: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/customer/profile": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * My profile
         * @description API tokens: needs the `account:read` scope.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description P = Personal, B = Business */
                                account_type: "P" | "B";
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                actual_balance: number;
                                business_profile: {
                                    address?: string | null;
                                    industry?: string | null;
                                    name?: string | null;
                                    phone?: string | null;
                                    tax_number?: string | null;
                                    website_url?: string | null;
                                };
                                email: string;
                                firstname: string;
                                full_name: string;
                                id: number;
                                is_2fa_active: boolean;
                                is_active: boolean;
                                is_identity_verified: boolean;
                                is_registration_completed: boolean;
                                lastname: string;
                                personal_profile: {
                                    address: string | null;
                                    city_custom: string | null;
                                    city_id: string | null;
                                    country_id: string | null;
                                    district_id: string | null;
                                    phone: string | null;
                                    province_custom: string | null;
                                    province_id: string | null;
                                    tax_number: string | null;
                                };
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update my profile (partial; geographic ids are lookup ids sent as strings)
         * @description API tokens: needs the `account:write` scope.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description P = Personal, B = Business */
                        account_type?: "P" | "B";
                        business_profile?: {
                            address?: string | null;
                            industry?: string | null;
                            name?: string | null;
                            phone?: string | null;
                            tax_number?: string | null;
                            website_url?: string | null;
                        };
                        firstname?: string;
                        lastname?: string;
                        personal_profile?: {
                            address?: string | null;
                            city_custom?: string | null;
                            city_id?: string | null;
                            country_id?: string | null;
                            district_id?: string | null;
                            phone?: string | null;
                            province_custom?: string | null;
                            province_id?: string | null;
                            tax_number?: string | null;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description P = Personal, B = Business */
                                account_type: "P" | "B";
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                actual_balance: number;
                                business_profile: {
                                    address?: string | null;
                                    industry?: string | null;
                                    name?: string | null;
                                    phone?: string | null;
                                    tax_number?: string | null;
                                    website_url?: string | null;
                                };
                                email: string;
                                firstname: string;
                                full_name: string;
                                id: number;
                                is_2fa_active: boolean;
                                is_active: boolean;
                                is_identity_verified: boolean;
                                is_registration_completed: boolean;
                                lastname: string;
                                personal_profile: {
                                    address: string | null;
                                    city_custom: string | null;
                                    city_id: string | null;
                                    country_id: string | null;
                                    district_id: string | null;
                                    phone: string | null;
                                    province_custom: string | null;
                                    province_id: string | null;
                                    tax_number: string | null;
                                };
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/customer/profile/notification-setting": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Mail preferences
         * @description API tokens: needs the `account:write` scope.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        allow_billing_reminder?: boolean;
                        allow_marketing_email?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                allow_billing_reminder: boolean;
                                allow_marketing_email: boolean;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/customer/referral": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * My referral code, how many customers used it and the bonus it earned
         * @description API tokens: needs the `account:read` scope.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                code: string;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                earned: number;
                                referred_count: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/customer/referral/claim": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Name the customer who referred me (once, before my first top-up)
         * @description 400 REFERRAL_CODE_NOT_FOUND / OWN_REFERRAL_CODE / REFERRAL_CYCLE / REFERRAL_TOO_LATE; 409 ALREADY_REFERRED.
         *
         *     API tokens: needs the `account:write` scope.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        code: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: null;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/customer/resource": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * My VM and public IP quota and usage
         * @description API tokens: needs the `account:read` scope.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                current_ip: number;
                                current_vm: number;
                                /** @description public IPs */
                                max_ip: number;
                                max_vm: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inf": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Who am I: account summary, balances, quotas
         * @description API tokens: needs the `account:read` scope.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description P = Personal, B = Business */
                                account_type: "P" | "B";
                                account_type_description: string;
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                actual_balance: number;
                                /** @description PREPAID or POSTPAID */
                                billing_type: string;
                                block_storage_limit: number;
                                business: {
                                    address?: string | null;
                                    industry?: string | null;
                                    name?: string | null;
                                    phone?: string | null;
                                    tax_number?: string | null;
                                    website_url?: string | null;
                                };
                                /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                current_balance: number;
                                do_not_suspend_until: string | null;
                                email: string;
                                first_name: string;
                                full_name: string;
                                id: number;
                                is_2fa_active: boolean;
                                is_active: boolean;
                                is_identity_verified: boolean;
                                is_registration_completed: boolean;
                                last_name: string;
                                loadbalancer_limit: number;
                                notification_setting: {
                                    allow_billing_reminder: boolean;
                                    allow_marketing_email: boolean;
                                };
                                object_storage_limit: number;
                                personal: {
                                    address: string | null;
                                    city_custom: string | null;
                                    city_id: string | null;
                                    country_id: string | null;
                                    district_id: string | null;
                                    phone: string | null;
                                    province_custom: string | null;
                                    province_id: string | null;
                                    tax_number: string | null;
                                };
                                private_ip_limit: number;
                                public_ip_limit: number;
                                reward_first_top_up: boolean;
                                reward_referral: boolean;
                                suspend_reason: string | null;
                                suspended_at: string | null;
                                unread_count: number;
                                vm_limit: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/lookup/app-colors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Theme colors of the app and the e-mails */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                app_color: {
                                    accent: string;
                                    error: string;
                                    primary: string;
                                    secondary: string;
                                };
                                email_color: {
                                    primary: string;
                                };
                            };
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/lookup/city": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Cities and regencies of a province */
        get: {
            parameters: {
                query: {
                    province_id: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: number;
                                name: string;
                                province_id: number;
                            }[];
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/lookup/country": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** All countries (ISO 3166-1) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                code: string;
                                id: number;
                                name: string;
                            }[];
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/lookup/district": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Districts of a city */
        get: {
            parameters: {
                query: {
                    city_id: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                city_id: number;
                                id: number;
                                name: string;
                            }[];
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/lookup/locations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Datacenter locations */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                code: string;
                                country_code: string;
                                id: number;
                                is_active: boolean;
                                name: string;
                            }[];
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/lookup/password-rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The password rule enforced by the service */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                description: string;
                                min_length: number;
                                /** @description ECMAScript regular expression every password must match */
                                regex: string;
                            };
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/lookup/province": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Provinces, optionally of one country */
        get: {
            parameters: {
                query?: {
                    country_id?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: number;
                                name: string;
                            }[];
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/lookup/tnc": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Link to the terms and conditions */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                link: string;
                            };
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/network/load-balancer/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * My load balancers, newest first
         * @description API tokens: needs the `network:read` scope.
         */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description the public address, once Active */
                                address: string | null;
                                algorithm: "round_robin" | "least_connections";
                                /** Format: date-time */
                                created_at: string;
                                forwarding_rules: {
                                    entry_port: number;
                                    entry_protocol: "http" | "https" | "tcp" | "udp";
                                    target_port: number;
                                    target_protocol: "http" | "https" | "tcp" | "udp";
                                }[];
                                health_check: {
                                    path: string | null;
                                    port: number;
                                    protocol: string;
                                } | null;
                                /** @description sync.last_error */
                                last_error: string | null;
                                location_id: number;
                                name: string;
                                status: "Creating" | "Active" | "Error" | "Deleting" | "Deleted";
                                /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                sync: {
                                    /** @description failed attempts in a row */
                                    attempts: number;
                                    last_error: string | null;
                                    last_error_at: string | null;
                                    next_retry_at: string | null;
                                    /**
                                     * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                     * @enum {string}
                                     */
                                    state: "synced" | "pending" | "failed";
                                };
                                /** @description true once the datacenter applied the latest change (sync.state synced) */
                                synced: boolean;
                                target_vm_ids: number[];
                                /** Format: date-time */
                                updated_at: string;
                                uuid: string;
                            }[];
                            message: string;
                            meta: {
                                limit: number;
                                page: number;
                                total: number;
                                total_pages: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Creates a load balancer (status Creating; Active once the datacenter has made it)
         * @description loadbalancer_limit is enforced (409 QUOTA_EXCEEDED). Targets must be my VMs in the same location whose tier has the load-balancer switch on, and the balancer must fit each target tier's loadbalance_config (400 TARGET_NOT_ALLOWED).
         *
         *     API tokens: needs the `network:write` scope.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        algorithm: "round_robin" | "least_connections";
                        forwarding_rules: {
                            entry_port: number;
                            entry_protocol: "http" | "https" | "tcp" | "udp";
                            target_port: number;
                            target_protocol: "http" | "https" | "tcp" | "udp";
                        }[];
                        health_check?: {
                            /** @description http(s) only; default / */
                            path?: string;
                            port: number;
                            protocol: "http" | "https" | "tcp";
                        } | null;
                        location_id: number;
                        name: string;
                        target_vm_ids?: number[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description the public address, once Active */
                                address: string | null;
                                algorithm: "round_robin" | "least_connections";
                                /** Format: date-time */
                                created_at: string;
                                forwarding_rules: {
                                    entry_port: number;
                                    entry_protocol: "http" | "https" | "tcp" | "udp";
                                    target_port: number;
                                    target_protocol: "http" | "https" | "tcp" | "udp";
                                }[];
                                health_check: {
                                    path: string | null;
                                    port: number;
                                    protocol: string;
                                } | null;
                                /** @description sync.last_error */
                                last_error: string | null;
                                location_id: number;
                                name: string;
                                status: "Creating" | "Active" | "Error" | "Deleting" | "Deleted";
                                /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                sync: {
                                    /** @description failed attempts in a row */
                                    attempts: number;
                                    last_error: string | null;
                                    last_error_at: string | null;
                                    next_retry_at: string | null;
                                    /**
                                     * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                     * @enum {string}
                                     */
                                    state: "synced" | "pending" | "failed";
                                };
                                /** @description true once the datacenter applied the latest change (sync.state synced) */
                                synced: boolean;
                                target_vm_ids: number[];
                                /** Format: date-time */
                                updated_at: string;
                                uuid: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/network/load-balancer/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One load balancer
         * @description API tokens: needs the `network:read` scope.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    uuid: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description the public address, once Active */
                                address: string | null;
                                algorithm: "round_robin" | "least_connections";
                                /** Format: date-time */
                                created_at: string;
                                forwarding_rules: {
                                    entry_port: number;
                                    entry_protocol: "http" | "https" | "tcp" | "udp";
                                    target_port: number;
                                    target_protocol: "http" | "https" | "tcp" | "udp";
                                }[];
                                health_check: {
                                    path: string | null;
                                    port: number;
                                    protocol: string;
                                } | null;
                                /** @description sync.last_error */
                                last_error: string | null;
                                location_id: number;
                                name: string;
                                status: "Creating" | "Active" | "Error" | "Deleting" | "Deleted";
                                /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                sync: {
                                    /** @description failed attempts in a row */
                                    attempts: number;
                                    last_error: string | null;
                                    last_error_at: string | null;
                                    next_retry_at: string | null;
                                    /**
                                     * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                     * @enum {string}
                                     */
                                    state: "synced" | "pending" | "failed";
                                };
                                /** @description true once the datacenter applied the latest change (sync.state synced) */
                                synced: boolean;
                                target_vm_ids: number[];
                                /** Format: date-time */
                                updated_at: string;
                                uuid: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Deletes a load balancer (Deleting, then Deleted)
         * @description API tokens: needs the `network:write` scope.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    uuid: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: null;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Changes the name, algorithm, forwarding rules or health check (null removes it)
         * @description API tokens: needs the `network:write` scope.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    uuid: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        algorithm?: "round_robin" | "least_connections";
                        forwarding_rules?: {
                            entry_port: number;
                            entry_protocol: "http" | "https" | "tcp" | "udp";
                            target_port: number;
                            target_protocol: "http" | "https" | "tcp" | "udp";
                        }[];
                        health_check?: {
                            /** @description http(s) only; default / */
                            path?: string;
                            port: number;
                            protocol: "http" | "https" | "tcp";
                        } | null;
                        name?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description the public address, once Active */
                                address: string | null;
                                algorithm: "round_robin" | "least_connections";
                                /** Format: date-time */
                                created_at: string;
                                forwarding_rules: {
                                    entry_port: number;
                                    entry_protocol: "http" | "https" | "tcp" | "udp";
                                    target_port: number;
                                    target_protocol: "http" | "https" | "tcp" | "udp";
                                }[];
                                health_check: {
                                    path: string | null;
                                    port: number;
                                    protocol: string;
                                } | null;
                                /** @description sync.last_error */
                                last_error: string | null;
                                location_id: number;
                                name: string;
                                status: "Creating" | "Active" | "Error" | "Deleting" | "Deleted";
                                /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                sync: {
                                    /** @description failed attempts in a row */
                                    attempts: number;
                                    last_error: string | null;
                                    last_error_at: string | null;
                                    next_retry_at: string | null;
                                    /**
                                     * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                     * @enum {string}
                                     */
                                    state: "synced" | "pending" | "failed";
                                };
                                /** @description true once the datacenter applied the latest change (sync.state synced) */
                                synced: boolean;
                                target_vm_ids: number[];
                                /** Format: date-time */
                                updated_at: string;
                                uuid: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/network/load-balancer/{uuid}/targets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Adds target VMs (adding one twice is a no-op)
         * @description API tokens: needs the `network:write` scope.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    uuid: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        vm_ids: number[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description the public address, once Active */
                                address: string | null;
                                algorithm: "round_robin" | "least_connections";
                                /** Format: date-time */
                                created_at: string;
                                forwarding_rules: {
                                    entry_port: number;
                                    entry_protocol: "http" | "https" | "tcp" | "udp";
                                    target_port: number;
                                    target_protocol: "http" | "https" | "tcp" | "udp";
                                }[];
                                health_check: {
                                    path: string | null;
                                    port: number;
                                    protocol: string;
                                } | null;
                                /** @description sync.last_error */
                                last_error: string | null;
                                location_id: number;
                                name: string;
                                status: "Creating" | "Active" | "Error" | "Deleting" | "Deleted";
                                /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                sync: {
                                    /** @description failed attempts in a row */
                                    attempts: number;
                                    last_error: string | null;
                                    last_error_at: string | null;
                                    next_retry_at: string | null;
                                    /**
                                     * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                     * @enum {string}
                                     */
                                    state: "synced" | "pending" | "failed";
                                };
                                /** @description true once the datacenter applied the latest change (sync.state synced) */
                                synced: boolean;
                                target_vm_ids: number[];
                                /** Format: date-time */
                                updated_at: string;
                                uuid: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/network/load-balancer/{uuid}/targets/{vm_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Removes a target VM
         * @description API tokens: needs the `network:write` scope.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    uuid: string;
                    vm_id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: null;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/network/private": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * My private networks
         * @description API tokens: needs the `network:read` scope.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description prefix length, 16 to 24 */
                                cidr: number;
                                /** Format: date-time */
                                created_at: string;
                                customer_id: number;
                                /** @description the network's .1, never handed to an instance */
                                gateway: string;
                                id: number;
                                /** @description IP occupation of the network */
                                ip_usage: {
                                    /** @description host addresses: all but network, gateway and broadcast */
                                    total: number;
                                    /** @description addresses assigned (or being attached or detached) */
                                    used: number;
                                };
                                location_id: number;
                                name: string;
                                /** @description network address, chosen by the service inside 10.0.0.0/8 */
                                network_ip: string;
                                /**
                                 * @description Creating until the datacenter has provisioned it, then ACTIVE
                                 * @enum {string}
                                 */
                                status: "Creating" | "ACTIVE";
                                /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                sync: {
                                    /** @description failed attempts in a row */
                                    attempts: number;
                                    last_error: string | null;
                                    last_error_at: string | null;
                                    next_retry_at: string | null;
                                    /**
                                     * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                     * @enum {string}
                                     */
                                    state: "synced" | "pending" | "failed";
                                };
                                /** Format: date-time */
                                updated_at: string;
                                /**
                                 * Format: uuid
                                 * @description path identifier
                                 */
                                uuid: string;
                            }[];
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Creates a private network (status Creating; Active once the datacenter has provisioned it)
         * @description The service chooses network_ip inside 10.0.0.0/8 so that it overlaps none of your networks. At most 5 networks (409 QUOTA_EXCEEDED); refused while your account is suspended or its balance is below zero (402 INSUFFICIENT_BALANCE, or ACCOUNT_SUSPENDED for overdue postpaid invoices); an unknown or inactive location is 400 LOCATION_UNAVAILABLE.
         *
         *     API tokens: needs the `network:write` scope.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description prefix length of the network (16 to 24) */
                        cidr: number;
                        location_id: number;
                        /** @description letters, digits, space, dot, dash, underscore */
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description prefix length, 16 to 24 */
                                cidr: number;
                                /** Format: date-time */
                                created_at: string;
                                customer_id: number;
                                /** @description the network's .1, never handed to an instance */
                                gateway: string;
                                id: number;
                                /** @description IP occupation of the network */
                                ip_usage: {
                                    /** @description host addresses: all but network, gateway and broadcast */
                                    total: number;
                                    /** @description addresses assigned (or being attached or detached) */
                                    used: number;
                                };
                                location_id: number;
                                name: string;
                                /** @description network address, chosen by the service inside 10.0.0.0/8 */
                                network_ip: string;
                                /**
                                 * @description Creating until the datacenter has provisioned it, then ACTIVE
                                 * @enum {string}
                                 */
                                status: "Creating" | "ACTIVE";
                                /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                sync: {
                                    /** @description failed attempts in a row */
                                    attempts: number;
                                    last_error: string | null;
                                    last_error_at: string | null;
                                    next_retry_at: string | null;
                                    /**
                                     * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                     * @enum {string}
                                     */
                                    state: "synced" | "pending" | "failed";
                                };
                                /** Format: date-time */
                                updated_at: string;
                                /**
                                 * Format: uuid
                                 * @description path identifier
                                 */
                                uuid: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/network/private/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One of my private networks, with its IP occupation
         * @description API tokens: needs the `network:read` scope.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    uuid: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description prefix length, 16 to 24 */
                                cidr: number;
                                /** Format: date-time */
                                created_at: string;
                                customer_id: number;
                                /** @description the network's .1, never handed to an instance */
                                gateway: string;
                                id: number;
                                /** @description IP occupation of the network */
                                ip_usage: {
                                    /** @description host addresses: all but network, gateway and broadcast */
                                    total: number;
                                    /** @description addresses assigned (or being attached or detached) */
                                    used: number;
                                };
                                location_id: number;
                                name: string;
                                /** @description network address, chosen by the service inside 10.0.0.0/8 */
                                network_ip: string;
                                /**
                                 * @description Creating until the datacenter has provisioned it, then ACTIVE
                                 * @enum {string}
                                 */
                                status: "Creating" | "ACTIVE";
                                /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                sync: {
                                    /** @description failed attempts in a row */
                                    attempts: number;
                                    last_error: string | null;
                                    last_error_at: string | null;
                                    next_retry_at: string | null;
                                    /**
                                     * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                     * @enum {string}
                                     */
                                    state: "synced" | "pending" | "failed";
                                };
                                /** Format: date-time */
                                updated_at: string;
                                /**
                                 * Format: uuid
                                 * @description path identifier
                                 */
                                uuid: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Deletes a private network (soft delete; removed at the datacenter by a job)
         * @description Refused with 409 NETWORK_IN_USE while any private IP is assigned (unassign every instance first), and 409 NETWORK_BUSY while the network is still Creating.
         *
         *     API tokens: needs the `network:write` scope.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    uuid: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: null;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/network/private/{uuid}/assign": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Assigns one of my VMs to the network: one free private IP is allocated automatically
         * @description Only when the network is ACTIVE (409 NETWORK_NOT_ACTIVE). The VM must be mine (404), in the network's location (400 LOCATION_MISMATCH), Running or Stopped (409 INVALID_VM_STATE), not already on the network (409 ALREADY_ASSIGNED). private_ip_limit counts every address I hold (409 QUOTA_EXCEEDED); a full network is 409 NO_CAPACITY. The address skips the network, gateway (.1) and broadcast addresses; the datacenter attaches it (is_registered becomes true).
         *
         *     API tokens: needs the `network:write` scope.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    uuid: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        instance_id: number;
                        /**
                         * @description VM (the only instance type so far)
                         * @enum {string}
                         */
                        instance_type: "VM";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                id: number;
                                instance_id: number;
                                /** @enum {string} */
                                instance_type: "VM";
                                ip: string;
                                /** @description the instance's name when it was assigned */
                                ip_description: string;
                                /** @description true once the datacenter has attached the address */
                                is_registered: boolean;
                                pending_action: ("attach" | "detach") | null;
                                pos_x: number;
                                pos_y: number;
                                /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                sync: {
                                    /** @description failed attempts in a row */
                                    attempts: number;
                                    last_error: string | null;
                                    last_error_at: string | null;
                                    next_retry_at: string | null;
                                    /**
                                     * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                     * @enum {string}
                                     */
                                    state: "synced" | "pending" | "failed";
                                };
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/network/private/{uuid}/assign/{instance_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Unassigns a VM from the network: its private IP is detached and returns to the network
         * @description The address stays listed with pending_action detach until the datacenter has detached it. An address still being attached is 409 IP_BUSY; a VM not on the network is 404.
         *
         *     API tokens: needs the `network:write` scope.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    instance_id: number;
                    uuid: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                id: number;
                                instance_id: number;
                                /** @enum {string} */
                                instance_type: "VM";
                                ip: string;
                                /** @description the instance's name when it was assigned */
                                ip_description: string;
                                /** @description true once the datacenter has attached the address */
                                is_registered: boolean;
                                pending_action: ("attach" | "detach") | null;
                                pos_x: number;
                                pos_y: number;
                                /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                sync: {
                                    /** @description failed attempts in a row */
                                    attempts: number;
                                    last_error: string | null;
                                    last_error_at: string | null;
                                    next_retry_at: string | null;
                                    /**
                                     * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                     * @enum {string}
                                     */
                                    state: "synced" | "pending" | "failed";
                                };
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/network/private/{uuid}/graph": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The network and its instances as nodes and edges
         * @description API tokens: needs the `network:read` scope.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    uuid: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                edges: {
                                    from: string;
                                    to: string;
                                }[];
                                nodes: {
                                    id: string;
                                    label: string;
                                }[];
                                private_network_id: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/network/private/{uuid}/ips": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The private IP allocations of a network
         * @description API tokens: needs the `network:read` scope.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    uuid: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                id: number;
                                instance_id: number;
                                /** @enum {string} */
                                instance_type: "VM";
                                ip: string;
                                /** @description the instance's name when it was assigned */
                                ip_description: string;
                                /** @description true once the datacenter has attached the address */
                                is_registered: boolean;
                                pending_action: ("attach" | "detach") | null;
                                pos_x: number;
                                pos_y: number;
                                /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                sync: {
                                    /** @description failed attempts in a row */
                                    attempts: number;
                                    last_error: string | null;
                                    last_error_at: string | null;
                                    next_retry_at: string | null;
                                    /**
                                     * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                     * @enum {string}
                                     */
                                    state: "synced" | "pending" | "failed";
                                };
                            }[];
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/network/security-group/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * My security groups, newest first
         * @description API tokens: needs the `network:read` scope.
         */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                description: string;
                                location_id: number;
                                name: string;
                                rules: {
                                    /** Format: date-time */
                                    created_at: string;
                                    direction: "ingress" | "egress";
                                    id: number;
                                    port_from: number | null;
                                    port_to: number | null;
                                    protocol: string;
                                    remote_cidr: string;
                                    rule_type_id: number;
                                }[];
                                /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                sync: {
                                    /** @description failed attempts in a row */
                                    attempts: number;
                                    last_error: string | null;
                                    last_error_at: string | null;
                                    next_retry_at: string | null;
                                    /**
                                     * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                     * @enum {string}
                                     */
                                    state: "synced" | "pending" | "failed";
                                };
                                /** @description true once the datacenter applied the latest change (sync.state synced) */
                                synced: boolean;
                                /** Format: date-time */
                                updated_at: string;
                                uuid: string;
                                /** @description the VMs the group is attached to */
                                vm_ids: number[];
                            }[];
                            message: string;
                            meta: {
                                limit: number;
                                page: number;
                                total: number;
                                total_pages: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Creates a security group
         * @description API tokens: needs the `network:write` scope.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string;
                        location_id: number;
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                description: string;
                                location_id: number;
                                name: string;
                                rules: {
                                    /** Format: date-time */
                                    created_at: string;
                                    direction: "ingress" | "egress";
                                    id: number;
                                    port_from: number | null;
                                    port_to: number | null;
                                    protocol: string;
                                    remote_cidr: string;
                                    rule_type_id: number;
                                }[];
                                /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                sync: {
                                    /** @description failed attempts in a row */
                                    attempts: number;
                                    last_error: string | null;
                                    last_error_at: string | null;
                                    next_retry_at: string | null;
                                    /**
                                     * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                     * @enum {string}
                                     */
                                    state: "synced" | "pending" | "failed";
                                };
                                /** @description true once the datacenter applied the latest change (sync.state synced) */
                                synced: boolean;
                                /** Format: date-time */
                                updated_at: string;
                                uuid: string;
                                /** @description the VMs the group is attached to */
                                vm_ids: number[];
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/network/security-group/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One security group with its rules and VMs
         * @description API tokens: needs the `network:read` scope.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    uuid: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                description: string;
                                location_id: number;
                                name: string;
                                rules: {
                                    /** Format: date-time */
                                    created_at: string;
                                    direction: "ingress" | "egress";
                                    id: number;
                                    port_from: number | null;
                                    port_to: number | null;
                                    protocol: string;
                                    remote_cidr: string;
                                    rule_type_id: number;
                                }[];
                                /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                sync: {
                                    /** @description failed attempts in a row */
                                    attempts: number;
                                    last_error: string | null;
                                    last_error_at: string | null;
                                    next_retry_at: string | null;
                                    /**
                                     * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                     * @enum {string}
                                     */
                                    state: "synced" | "pending" | "failed";
                                };
                                /** @description true once the datacenter applied the latest change (sync.state synced) */
                                synced: boolean;
                                /** Format: date-time */
                                updated_at: string;
                                uuid: string;
                                /** @description the VMs the group is attached to */
                                vm_ids: number[];
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Deletes a security group (409 SECURITY_GROUP_IN_USE while attached to a VM)
         * @description API tokens: needs the `network:write` scope.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    uuid: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: null;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/network/security-group/{uuid}/rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Adds an ingress or egress rule of a firewall rule type
         * @description The rule type's protocol decides the ports: tcp/udp need port_from (port_to defaults to it), icmp and any refuse ports.
         *
         *     API tokens: needs the `network:write` scope.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    uuid: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        direction: "ingress" | "egress";
                        /** @description required for tcp/udp rule types, refused for icmp and any */
                        port_from?: number;
                        /** @description defaults to port_from */
                        port_to?: number;
                        /** @description e.g. 0.0.0.0/0 or 10.0.0.0/8 (no host bits set), or an IPv6 prefix */
                        remote_cidr: string;
                        rule_type_id: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                direction: "ingress" | "egress";
                                id: number;
                                port_from: number | null;
                                port_to: number | null;
                                protocol: string;
                                remote_cidr: string;
                                rule_type_id: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/network/security-group/{uuid}/rules/{rule_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Deletes a rule
         * @description API tokens: needs the `network:write` scope.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    rule_id: number;
                    uuid: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: null;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/network/security-group/rule-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The firewall rule types a rule may name (kept by staff in the settings)
         * @description API tokens: needs the `network:read` scope.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                description: string;
                                id: number;
                                name: string;
                                /** @description tcp, udp, icmp or any; tcp and udp rules need ports */
                                protocol: string;
                            }[];
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/notifications/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * My notifications, newest first
         * @description `meta.unread_count` is the same number as `unread_count` in GET /api/inf.
         *
         *     API tokens: needs the `account:read` scope.
         */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page?: number;
                    /** @description true: only unread notifications */
                    unread?: boolean;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                body: string;
                                /** Format: date-time */
                                created_at: string;
                                id: number;
                                is_read: boolean;
                                /** @description INVOICE_CREATED (a top-up or postpaid invoice), TOPUP_CREDITED, INVOICE_PAID, INVOICE_DUE_SOON, INVOICE_OVERDUE (postpaid), LOW_BALANCE, RUNWAY_WARNING, SUSPENDED, RESUMED, TICKET_REPLY, ANNOUNCEMENT, WEBHOOK_DISABLED (a webhook endpoint was disabled) */
                                kind: "INVOICE_CREATED" | "LOW_BALANCE" | "SUSPENDED" | "TICKET_REPLY" | "ANNOUNCEMENT" | "TOPUP_CREDITED" | "INVOICE_PAID" | "INVOICE_DUE_SOON" | "INVOICE_OVERDUE" | "RESUMED" | "RUNWAY_WARNING" | "WEBHOOK_DISABLED";
                                read_at: string | null;
                                reference_id: string;
                                /** @description what it is about: topup_invoice, postpaid_invoice, balance_log, billing_notice, suspension, resumption, ticket, announcement */
                                reference_type: string;
                                title: string;
                            }[];
                            message: string;
                            meta: {
                                limit: number;
                                page: number;
                                total: number;
                                total_pages: number;
                                unread_count: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/notifications/{id}/read": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Mark one of my notifications as read (repeating it changes nothing)
         * @description API tokens: needs the `account:write` scope.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                body: string;
                                /** Format: date-time */
                                created_at: string;
                                id: number;
                                is_read: boolean;
                                /** @description INVOICE_CREATED (a top-up or postpaid invoice), TOPUP_CREDITED, INVOICE_PAID, INVOICE_DUE_SOON, INVOICE_OVERDUE (postpaid), LOW_BALANCE, RUNWAY_WARNING, SUSPENDED, RESUMED, TICKET_REPLY, ANNOUNCEMENT, WEBHOOK_DISABLED (a webhook endpoint was disabled) */
                                kind: "INVOICE_CREATED" | "LOW_BALANCE" | "SUSPENDED" | "TICKET_REPLY" | "ANNOUNCEMENT" | "TOPUP_CREDITED" | "INVOICE_PAID" | "INVOICE_DUE_SOON" | "INVOICE_OVERDUE" | "RESUMED" | "RUNWAY_WARNING" | "WEBHOOK_DISABLED";
                                read_at: string | null;
                                reference_id: string;
                                /** @description what it is about: topup_invoice, postpaid_invoice, balance_log, billing_notice, suspension, resumption, ticket, announcement */
                                reference_type: string;
                                title: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/notifications/read-all": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Mark all my notifications as read
         * @description API tokens: needs the `account:write` scope.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                marked: number;
                                unread_count: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/payment/redirect/{gateway}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Where the gateway sends the browser back
         * @description Redirects (302) to FRONTEND_URL/billing/topup?status=...; without a front end configured, a small HTML page states the result.
         */
        get: {
            parameters: {
                query: {
                    status: "success" | "failed" | "pending";
                };
                header?: never;
                path: {
                    gateway: "pgone" | "pgtwo";
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/release-notes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Published release notes, newest first
         * @description API tokens: needs the `account:read` scope.
         */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: number;
                                message: string;
                                /** Format: date-time */
                                published_at: string;
                                title: string;
                            }[];
                            message: string;
                            meta: {
                                limit: number;
                                page: number;
                                total: number;
                                total_pages: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ssh-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * My SSH keys, newest first
         * @description API tokens: needs the `compute:read` scope.
         */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                bits: number;
                                /** Format: date-time */
                                created_at: string;
                                /** @description SHA256 fingerprint, as `ssh-keygen -l` prints it */
                                fingerprint: string;
                                id: number;
                                /** @description ssh-ed25519, ssh-rsa, ecdsa-sha2-nistp256, … */
                                key_type: string;
                                name: string;
                                /** @description the key as OpenSSH writes it */
                                public_key: string;
                                /** Format: date-time */
                                updated_at: string;
                            }[];
                            message: string;
                            meta: {
                                limit: number;
                                page: number;
                                total: number;
                                total_pages: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Adds an SSH public key (validated; its fingerprint is shown)
         * @description API tokens: needs the `compute:write` scope.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description your label for the key */
                        name: string;
                        /** @description one OpenSSH public key line, as in ~/.ssh/id_ed25519.pub: ed25519, ECDSA, or RSA of 2048 bits or more */
                        public_key: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                bits: number;
                                /** Format: date-time */
                                created_at: string;
                                /** @description SHA256 fingerprint, as `ssh-keygen -l` prints it */
                                fingerprint: string;
                                id: number;
                                /** @description ssh-ed25519, ssh-rsa, ecdsa-sha2-nistp256, … */
                                key_type: string;
                                name: string;
                                /** @description the key as OpenSSH writes it */
                                public_key: string;
                                /** Format: date-time */
                                updated_at: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ssh-keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One SSH key
         * @description API tokens: needs the `compute:read` scope.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                bits: number;
                                /** Format: date-time */
                                created_at: string;
                                /** @description SHA256 fingerprint, as `ssh-keygen -l` prints it */
                                fingerprint: string;
                                id: number;
                                /** @description ssh-ed25519, ssh-rsa, ecdsa-sha2-nistp256, … */
                                key_type: string;
                                name: string;
                                /** @description the key as OpenSSH writes it */
                                public_key: string;
                                /** Format: date-time */
                                updated_at: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Deletes an SSH key (VMs created with it keep it)
         * @description API tokens: needs the `compute:write` scope.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: null;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Renames an SSH key
         * @description API tokens: needs the `compute:write` scope.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description your label for the key */
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                bits: number;
                                /** Format: date-time */
                                created_at: string;
                                /** @description SHA256 fingerprint, as `ssh-keygen -l` prints it */
                                fingerprint: string;
                                id: number;
                                /** @description ssh-ed25519, ssh-rsa, ecdsa-sha2-nistp256, … */
                                key_type: string;
                                name: string;
                                /** @description the key as OpenSSH writes it */
                                public_key: string;
                                /** Format: date-time */
                                updated_at: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/storage/object": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * My buckets
         * @description API tokens: needs the `storage:read` scope.
         */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                /** @description whether objects can be stored and read with S3 clients. false on the embedded default (OBJECT_STORAGE_PROVIDER=local): buckets, sizes, ACLs and keys exist and are billed as configured, but there is no S3 endpoint and no object data; OBJECT_STORAGE_PROVIDER=ceph (a Ceph RADOS Gateway) gives one */
                                data_plane: boolean;
                                /** @description S3 endpoint for clients (path-style); null when the deployment has no S3 data plane (data_plane false) */
                                endpoint: string | null;
                                location_id: number;
                                name: string;
                                /** @description A = public (anonymous clients may read objects), P = private */
                                public_acl: "A" | "P";
                                /** @description GB */
                                size: number;
                                /**
                                 * @description Creating until the storage backend has the bucket
                                 * @enum {string}
                                 */
                                status: "Creating" | "Active" | "Deleting" | "Error";
                                /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                sync: {
                                    /** @description failed attempts in a row */
                                    attempts: number;
                                    last_error: string | null;
                                    last_error_at: string | null;
                                    next_retry_at: string | null;
                                    /**
                                     * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                     * @enum {string}
                                     */
                                    state: "synced" | "pending" | "failed";
                                };
                                /** Format: date-time */
                                updated_at: string;
                                /** Format: uuid */
                                uuid: string;
                            }[];
                            message: string;
                            meta: {
                                limit: number;
                                page: number;
                                total: number;
                                total_pages: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a bucket (201, status Creating until the backend has it)
         * @description API tokens: needs the `storage:write` scope.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        location_id: number;
                        /** @description unique system-wide; lowercase letters, digits and hyphens */
                        name: string;
                        /** @description A = public (anonymous clients may read objects), P = private */
                        public_acl?: "A" | "P";
                        /** @description bucket quota in GB (the bucket refuses writes beyond it; billed per GB-hour) */
                        size?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                /** @description whether objects can be stored and read with S3 clients. false on the embedded default (OBJECT_STORAGE_PROVIDER=local): buckets, sizes, ACLs and keys exist and are billed as configured, but there is no S3 endpoint and no object data; OBJECT_STORAGE_PROVIDER=ceph (a Ceph RADOS Gateway) gives one */
                                data_plane: boolean;
                                /** @description S3 endpoint for clients (path-style); null when the deployment has no S3 data plane (data_plane false) */
                                endpoint: string | null;
                                location_id: number;
                                name: string;
                                /** @description A = public (anonymous clients may read objects), P = private */
                                public_acl: "A" | "P";
                                /** @description GB */
                                size: number;
                                /**
                                 * @description Creating until the storage backend has the bucket
                                 * @enum {string}
                                 */
                                status: "Creating" | "Active" | "Deleting" | "Error";
                                /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                sync: {
                                    /** @description failed attempts in a row */
                                    attempts: number;
                                    last_error: string | null;
                                    last_error_at: string | null;
                                    next_retry_at: string | null;
                                    /**
                                     * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                     * @enum {string}
                                     */
                                    state: "synced" | "pending" | "failed";
                                };
                                /** Format: date-time */
                                updated_at: string;
                                /** Format: uuid */
                                uuid: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/storage/object/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One bucket with what it stores
         * @description API tokens: needs the `storage:read` scope.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    uuid: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                /** @description whether objects can be stored and read with S3 clients. false on the embedded default (OBJECT_STORAGE_PROVIDER=local): buckets, sizes, ACLs and keys exist and are billed as configured, but there is no S3 endpoint and no object data; OBJECT_STORAGE_PROVIDER=ceph (a Ceph RADOS Gateway) gives one */
                                data_plane: boolean;
                                /** @description S3 endpoint for clients (path-style); null when the deployment has no S3 data plane (data_plane false) */
                                endpoint: string | null;
                                location_id: number;
                                name: string;
                                /** @description A = public (anonymous clients may read objects), P = private */
                                public_acl: "A" | "P";
                                /** @description GB */
                                size: number;
                                /**
                                 * @description Creating until the storage backend has the bucket
                                 * @enum {string}
                                 */
                                status: "Creating" | "Active" | "Deleting" | "Error";
                                /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                sync: {
                                    /** @description failed attempts in a row */
                                    attempts: number;
                                    last_error: string | null;
                                    last_error_at: string | null;
                                    next_retry_at: string | null;
                                    /**
                                     * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                     * @enum {string}
                                     */
                                    state: "synced" | "pending" | "failed";
                                };
                                /** Format: date-time */
                                updated_at: string;
                                /** @description what the bucket stores now; null while Creating */
                                usage: {
                                    bytes: number;
                                    objects: number;
                                } | null;
                                /** Format: uuid */
                                uuid: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Delete an empty bucket (409 BUCKET_NOT_EMPTY otherwise)
         * @description API tokens: needs the `storage:write` scope.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    uuid: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: null;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/storage/object/{uuid}/acl": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Public (A) or private (P)
         * @description API tokens: needs the `storage:write` scope.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    uuid: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description A = public (anonymous clients may read objects), P = private */
                        public_acl: "A" | "P";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                /** @description whether objects can be stored and read with S3 clients. false on the embedded default (OBJECT_STORAGE_PROVIDER=local): buckets, sizes, ACLs and keys exist and are billed as configured, but there is no S3 endpoint and no object data; OBJECT_STORAGE_PROVIDER=ceph (a Ceph RADOS Gateway) gives one */
                                data_plane: boolean;
                                /** @description S3 endpoint for clients (path-style); null when the deployment has no S3 data plane (data_plane false) */
                                endpoint: string | null;
                                location_id: number;
                                name: string;
                                /** @description A = public (anonymous clients may read objects), P = private */
                                public_acl: "A" | "P";
                                /** @description GB */
                                size: number;
                                /**
                                 * @description Creating until the storage backend has the bucket
                                 * @enum {string}
                                 */
                                status: "Creating" | "Active" | "Deleting" | "Error";
                                /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                sync: {
                                    /** @description failed attempts in a row */
                                    attempts: number;
                                    last_error: string | null;
                                    last_error_at: string | null;
                                    next_retry_at: string | null;
                                    /**
                                     * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                     * @enum {string}
                                     */
                                    state: "synced" | "pending" | "failed";
                                };
                                /** Format: date-time */
                                updated_at: string;
                                /** Format: uuid */
                                uuid: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/storage/object/{uuid}/resize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * New size in GB (not below what is stored; growing is refused while the account is suspended or its balance is below zero, 402)
         * @description API tokens: needs the `storage:write` scope.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    uuid: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description bucket quota in GB (the bucket refuses writes beyond it; billed per GB-hour) */
                        size: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                /** @description whether objects can be stored and read with S3 clients. false on the embedded default (OBJECT_STORAGE_PROVIDER=local): buckets, sizes, ACLs and keys exist and are billed as configured, but there is no S3 endpoint and no object data; OBJECT_STORAGE_PROVIDER=ceph (a Ceph RADOS Gateway) gives one */
                                data_plane: boolean;
                                /** @description S3 endpoint for clients (path-style); null when the deployment has no S3 data plane (data_plane false) */
                                endpoint: string | null;
                                location_id: number;
                                name: string;
                                /** @description A = public (anonymous clients may read objects), P = private */
                                public_acl: "A" | "P";
                                /** @description GB */
                                size: number;
                                /**
                                 * @description Creating until the storage backend has the bucket
                                 * @enum {string}
                                 */
                                status: "Creating" | "Active" | "Deleting" | "Error";
                                /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                sync: {
                                    /** @description failed attempts in a row */
                                    attempts: number;
                                    last_error: string | null;
                                    last_error_at: string | null;
                                    next_retry_at: string | null;
                                    /**
                                     * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                     * @enum {string}
                                     */
                                    state: "synced" | "pending" | "failed";
                                };
                                /** Format: date-time */
                                updated_at: string;
                                /** Format: uuid */
                                uuid: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/storage/object/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * My access keys (never their secrets)
         * @description API tokens: needs the `storage:read` scope.
         */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                AccessKey: string;
                                buckets: {
                                    acl: "Read_Only" | "Read_Write";
                                    bucket_name: string;
                                    /** Format: uuid */
                                    bucket_uuid: string;
                                }[];
                                /** Format: date-time */
                                created_at: string;
                                /** @description whether objects can be stored and read with S3 clients. false on the embedded default (OBJECT_STORAGE_PROVIDER=local): buckets, sizes, ACLs and keys exist and are billed as configured, but there is no S3 endpoint and no object data; OBJECT_STORAGE_PROVIDER=ceph (a Ceph RADOS Gateway) gives one */
                                data_plane: boolean;
                                /** @description S3 endpoint for clients (path-style); null when the deployment has no S3 data plane (data_plane false) */
                                endpoint: string | null;
                                is_active: boolean;
                                location_id: number;
                                name: string;
                                /** @enum {string} */
                                status: "Creating" | "Active" | "Error";
                                /** @description the account is suspended (balance below zero): the key is refused until it resumes */
                                suspended: boolean;
                                /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                sync: {
                                    /** @description failed attempts in a row */
                                    attempts: number;
                                    last_error: string | null;
                                    last_error_at: string | null;
                                    next_retry_at: string | null;
                                    /**
                                     * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                     * @enum {string}
                                     */
                                    state: "synced" | "pending" | "failed";
                                };
                            }[];
                            message: string;
                            meta: {
                                limit: number;
                                page: number;
                                total: number;
                                total_pages: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create an access key: the SecretKey is shown in this answer only
         * @description API tokens: needs the `storage:write` scope.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        location_id: number;
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                AccessKey: string;
                                buckets: {
                                    acl: "Read_Only" | "Read_Write";
                                    bucket_name: string;
                                    /** Format: uuid */
                                    bucket_uuid: string;
                                }[];
                                /** Format: date-time */
                                created_at: string;
                                /** @description whether objects can be stored and read with S3 clients. false on the embedded default (OBJECT_STORAGE_PROVIDER=local): buckets, sizes, ACLs and keys exist and are billed as configured, but there is no S3 endpoint and no object data; OBJECT_STORAGE_PROVIDER=ceph (a Ceph RADOS Gateway) gives one */
                                data_plane: boolean;
                                /** @description S3 endpoint for clients (path-style); null when the deployment has no S3 data plane (data_plane false) */
                                endpoint: string | null;
                                is_active: boolean;
                                location_id: number;
                                name: string;
                                /** @description shown only in this answer; the platform keeps no copy it can show again */
                                SecretKey: string;
                                /** @enum {string} */
                                status: "Creating" | "Active" | "Error";
                                /** @description the account is suspended (balance below zero): the key is refused until it resumes */
                                suspended: boolean;
                                /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                sync: {
                                    /** @description failed attempts in a row */
                                    attempts: number;
                                    last_error: string | null;
                                    last_error_at: string | null;
                                    next_retry_at: string | null;
                                    /**
                                     * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                     * @enum {string}
                                     */
                                    state: "synced" | "pending" | "failed";
                                };
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/storage/object/keys/{accessKey}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a key: clients using it get access denied
         * @description API tokens: needs the `storage:write` scope.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    accessKey: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: null;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Disable or re-enable a key
         * @description API tokens: needs the `storage:write` scope.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    accessKey: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        is_active: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                AccessKey: string;
                                buckets: {
                                    acl: "Read_Only" | "Read_Write";
                                    bucket_name: string;
                                    /** Format: uuid */
                                    bucket_uuid: string;
                                }[];
                                /** Format: date-time */
                                created_at: string;
                                /** @description whether objects can be stored and read with S3 clients. false on the embedded default (OBJECT_STORAGE_PROVIDER=local): buckets, sizes, ACLs and keys exist and are billed as configured, but there is no S3 endpoint and no object data; OBJECT_STORAGE_PROVIDER=ceph (a Ceph RADOS Gateway) gives one */
                                data_plane: boolean;
                                /** @description S3 endpoint for clients (path-style); null when the deployment has no S3 data plane (data_plane false) */
                                endpoint: string | null;
                                is_active: boolean;
                                location_id: number;
                                name: string;
                                /** @enum {string} */
                                status: "Creating" | "Active" | "Error";
                                /** @description the account is suspended (balance below zero): the key is refused until it resumes */
                                suspended: boolean;
                                /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                sync: {
                                    /** @description failed attempts in a row */
                                    attempts: number;
                                    last_error: string | null;
                                    last_error_at: string | null;
                                    next_retry_at: string | null;
                                    /**
                                     * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                     * @enum {string}
                                     */
                                    state: "synced" | "pending" | "failed";
                                };
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/storage/object/keys/{accessKey}/buckets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Grant the key Read_Only or Read_Write on a bucket (again: changes the ACL)
         * @description API tokens: needs the `storage:write` scope.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    accessKey: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        acl: "Read_Only" | "Read_Write";
                        /** Format: uuid */
                        bucket_uuid: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                AccessKey: string;
                                buckets: {
                                    acl: "Read_Only" | "Read_Write";
                                    bucket_name: string;
                                    /** Format: uuid */
                                    bucket_uuid: string;
                                }[];
                                /** Format: date-time */
                                created_at: string;
                                /** @description whether objects can be stored and read with S3 clients. false on the embedded default (OBJECT_STORAGE_PROVIDER=local): buckets, sizes, ACLs and keys exist and are billed as configured, but there is no S3 endpoint and no object data; OBJECT_STORAGE_PROVIDER=ceph (a Ceph RADOS Gateway) gives one */
                                data_plane: boolean;
                                /** @description S3 endpoint for clients (path-style); null when the deployment has no S3 data plane (data_plane false) */
                                endpoint: string | null;
                                is_active: boolean;
                                location_id: number;
                                name: string;
                                /** @enum {string} */
                                status: "Creating" | "Active" | "Error";
                                /** @description the account is suspended (balance below zero): the key is refused until it resumes */
                                suspended: boolean;
                                /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                sync: {
                                    /** @description failed attempts in a row */
                                    attempts: number;
                                    last_error: string | null;
                                    last_error_at: string | null;
                                    next_retry_at: string | null;
                                    /**
                                     * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                     * @enum {string}
                                     */
                                    state: "synced" | "pending" | "failed";
                                };
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/storage/object/keys/{accessKey}/buckets/{bucketUuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke the key's access to a bucket
         * @description API tokens: needs the `storage:write` scope.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    accessKey: string;
                    bucketUuid: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                AccessKey: string;
                                buckets: {
                                    acl: "Read_Only" | "Read_Write";
                                    bucket_name: string;
                                    /** Format: uuid */
                                    bucket_uuid: string;
                                }[];
                                /** Format: date-time */
                                created_at: string;
                                /** @description whether objects can be stored and read with S3 clients. false on the embedded default (OBJECT_STORAGE_PROVIDER=local): buckets, sizes, ACLs and keys exist and are billed as configured, but there is no S3 endpoint and no object data; OBJECT_STORAGE_PROVIDER=ceph (a Ceph RADOS Gateway) gives one */
                                data_plane: boolean;
                                /** @description S3 endpoint for clients (path-style); null when the deployment has no S3 data plane (data_plane false) */
                                endpoint: string | null;
                                is_active: boolean;
                                location_id: number;
                                name: string;
                                /** @enum {string} */
                                status: "Creating" | "Active" | "Error";
                                /** @description the account is suspended (balance below zero): the key is refused until it resumes */
                                suspended: boolean;
                                /** @description The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change. */
                                sync: {
                                    /** @description failed attempts in a row */
                                    attempts: number;
                                    last_error: string | null;
                                    last_error_at: string | null;
                                    next_retry_at: string | null;
                                    /**
                                     * @description synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed
                                     * @enum {string}
                                     */
                                    state: "synced" | "pending" | "failed";
                                };
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/storage/object/price": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Price per GB-hour, tiered (default location: 1)
         * @description API tokens: needs the `storage:read` scope.
         */
        get: {
            parameters: {
                query?: {
                    location_id?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                currency: string;
                                /** @description what those GB cost per hour under the tiers */
                                current_hourly_cost: number;
                                location_id: number;
                                /** @description GB of the customer's buckets at the location */
                                provisioned_gb: number;
                                /**
                                 * @description component: the price_versions of the configured component; setting: OBJECT_STORAGE_GB_MONTH_PRICE
                                 * @enum {string}
                                 */
                                source: "component" | "setting";
                                /** @description marginal tiers over the customer's provisioned GB at the location */
                                tiers: {
                                    from_gb: number;
                                    /** @description monthly / 730, 6 decimals */
                                    price_per_gb_hour: number;
                                    /** @description Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float) */
                                    price_per_gb_month: number;
                                    to_gb: number | null;
                                }[];
                                /** @enum {string} */
                                unit: "GB";
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ticket/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * My tickets, latest activity first
         * @description API tokens: needs the `tickets:read` scope.
         */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page?: number;
                    /** @description Open → In Progress (staff reply or assignment) → Closed (customer or staff) → Archived (staff) */
                    status?: "Open" | "In Progress" | "Closed" | "Archived";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                closed_at: string | null;
                                /** Format: date-time */
                                created_at: string;
                                id: number;
                                /** Format: date-time */
                                last_message_at: string;
                                message_count: number;
                                priority: "Low" | "Medium" | "High";
                                /** @description Open → In Progress (staff reply or assignment) → Closed (customer or staff) → Archived (staff) */
                                status: "Open" | "In Progress" | "Closed" | "Archived";
                                title: string;
                                /** Format: date-time */
                                updated_at: string;
                            }[];
                            message: string;
                            meta: {
                                limit: number;
                                page: number;
                                total: number;
                                total_pages: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Open a support ticket (status Open), optionally with files
         * @description The first message may carry files as a reply does: up to 3 of at most 2 MiB each (PNG, JPEG, GIF, WebP, PDF, plain text or CSV; the bytes must match the type).
         *
         *     API tokens: needs the `tickets:write` scope.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        attachments?: {
                            /** @description standard base64; at most 2097152 bytes decoded; the bytes must be of the stated type */
                            content_base64: string;
                            /** @description image/png, image/jpeg, image/gif, image/webp, application/pdf, text/plain, text/csv */
                            content_type: string;
                            /** @description its extension must fit the content type */
                            filename: string;
                        }[];
                        message: string;
                        priority?: "Low" | "Medium" | "High";
                        title: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                closed_at: string | null;
                                /** Format: date-time */
                                created_at: string;
                                id: number;
                                /** Format: date-time */
                                last_message_at: string;
                                message_count: number;
                                messages: {
                                    attachments: {
                                        content_type: string;
                                        filename: string;
                                        /** Format: uuid */
                                        id: string;
                                        sha256: string;
                                        size_bytes: number;
                                        /** @description download path (same side of the API as the answer) */
                                        url: string;
                                    }[];
                                    /** Format: date-time */
                                    created_at: string;
                                    id: number;
                                    message: string;
                                    sender: {
                                        id: number;
                                        name: string;
                                    };
                                    sender_type: "customer" | "admin";
                                    ticket_id: number;
                                }[];
                                priority: "Low" | "Medium" | "High";
                                /** @description Open → In Progress (staff reply or assignment) → Closed (customer or staff) → Archived (staff) */
                                status: "Open" | "In Progress" | "Closed" | "Archived";
                                title: string;
                                /** Format: date-time */
                                updated_at: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ticket/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One of my tickets with its conversation
         * @description API tokens: needs the `tickets:read` scope.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                closed_at: string | null;
                                /** Format: date-time */
                                created_at: string;
                                id: number;
                                /** Format: date-time */
                                last_message_at: string;
                                message_count: number;
                                messages: {
                                    attachments: {
                                        content_type: string;
                                        filename: string;
                                        /** Format: uuid */
                                        id: string;
                                        sha256: string;
                                        size_bytes: number;
                                        /** @description download path (same side of the API as the answer) */
                                        url: string;
                                    }[];
                                    /** Format: date-time */
                                    created_at: string;
                                    id: number;
                                    message: string;
                                    sender: {
                                        id: number;
                                        name: string;
                                    };
                                    sender_type: "customer" | "admin";
                                    ticket_id: number;
                                }[];
                                priority: "Low" | "Medium" | "High";
                                /** @description Open → In Progress (staff reply or assignment) → Closed (customer or staff) → Archived (staff) */
                                status: "Open" | "In Progress" | "Closed" | "Archived";
                                title: string;
                                /** Format: date-time */
                                updated_at: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ticket/{id}/attachments/{attachment_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a file of my ticket
         * @description API tokens: needs the `tickets:read` scope.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    attachment_id: string;
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the file, as an attachment download */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/octet-stream": string;
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/octet-stream": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/octet-stream": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ticket/{id}/close": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Close my ticket
         * @description API tokens: needs the `tickets:write` scope.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                closed_at: string | null;
                                /** Format: date-time */
                                created_at: string;
                                id: number;
                                /** Format: date-time */
                                last_message_at: string;
                                message_count: number;
                                priority: "Low" | "Medium" | "High";
                                /** @description Open → In Progress (staff reply or assignment) → Closed (customer or staff) → Archived (staff) */
                                status: "Open" | "In Progress" | "Closed" | "Archived";
                                title: string;
                                /** Format: date-time */
                                updated_at: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/ticket/{id}/reply": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reply on my ticket, optionally with files
         * @description Up to 3 files of at most 2 MiB each: PNG, JPEG, GIF, WebP, PDF, plain text or CSV; the bytes must match the type. A Closed or Archived ticket takes no reply (409).
         *
         *     API tokens: needs the `tickets:write` scope.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        attachments?: {
                            /** @description standard base64; at most 2097152 bytes decoded; the bytes must be of the stated type */
                            content_base64: string;
                            /** @description image/png, image/jpeg, image/gif, image/webp, application/pdf, text/plain, text/csv */
                            content_type: string;
                            /** @description its extension must fit the content type */
                            filename: string;
                        }[];
                        message: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                attachments: {
                                    content_type: string;
                                    filename: string;
                                    /** Format: uuid */
                                    id: string;
                                    sha256: string;
                                    size_bytes: number;
                                    /** @description download path (same side of the API as the answer) */
                                    url: string;
                                }[];
                                /** Format: date-time */
                                created_at: string;
                                id: number;
                                message: string;
                                sender: {
                                    id: number;
                                    name: string;
                                };
                                sender_type: "customer" | "admin";
                                ticket_id: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * My tokens, newest first (no secrets)
         * @description Not available to API tokens.
         */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                expires_at: string;
                                id: number;
                                last_used_at: string | null;
                                last_used_ip: string | null;
                                name: string;
                                /** @description the first characters of the secret, to tell tokens apart */
                                prefix: string;
                                revoked_at: string | null;
                                scopes: string[];
                                state: "active" | "expired" | "revoked";
                            }[];
                            message: string;
                            meta: {
                                limit: number;
                                page: number;
                                total: number;
                                total_pages: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Creates a token (needs X-Access-Token from sudo); the secret is in this answer only
         * @description Not available to API tokens.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description sudo token from POST /api/auth/profile/sudo */
                    "x-access-token"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * Format: date-time
                         * @description ISO 8601 instant with an explicit offset (Z or ±hh:mm), e.g. 2030-01-31T17:00:00Z; between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z in UTC; fractions of a second are kept to the millisecond
                         */
                        expires_at?: string;
                        /** @description default 90; or give expires_at */
                        expires_in_days?: number;
                        /** @description your label for the token (where it is used) */
                        name: string;
                        scopes: ("account:read" | "account:write" | "account:*" | "billing:read" | "billing:write" | "billing:*" | "compute:read" | "compute:write" | "compute:*" | "network:read" | "network:write" | "network:*" | "storage:read" | "storage:write" | "storage:*" | "tickets:read" | "tickets:write" | "tickets:*" | "webhooks:read" | "webhooks:write" | "webhooks:*")[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                expires_at: string;
                                id: number;
                                last_used_at: string | null;
                                last_used_ip: string | null;
                                name: string;
                                /** @description the first characters of the secret, to tell tokens apart */
                                prefix: string;
                                revoked_at: string | null;
                                scopes: string[];
                                state: "active" | "expired" | "revoked";
                                /** @description the secret, shown this once: send it as Authorization: Bearer <token> */
                                token: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revokes a token: its next request answers 401
         * @description Not available to API tokens.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                expires_at: string;
                                id: number;
                                last_used_at: string | null;
                                last_used_ip: string | null;
                                name: string;
                                /** @description the first characters of the secret, to tell tokens apart */
                                prefix: string;
                                revoked_at: string | null;
                                scopes: string[];
                                state: "active" | "expired" | "revoked";
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Renames a token
         * @description Not available to API tokens.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description your label for the token (where it is used) */
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                expires_at: string;
                                id: number;
                                last_used_at: string | null;
                                last_used_ip: string | null;
                                name: string;
                                /** @description the first characters of the secret, to tell tokens apart */
                                prefix: string;
                                revoked_at: string | null;
                                scopes: string[];
                                state: "active" | "expired" | "revoked";
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/webhook/pgone/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Payment callback of pgone
         * @description application/x-www-form-urlencoded: merchantOrderId (invoice UUID), amount, resultCode (00 success, 01 failed), signature = hex HMAC-SHA256(PGONE_API_KEY, merchantCode + amount + merchantOrderId). Repeats answer 200.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: null;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhook/pgtwo/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Payment callback of pgtwo
         * @description application/json: { id, external_id (invoice UUID), amount, status: PAID | FAILED | EXPIRED, paid_at }, header X-Callback-Signature = hex HMAC-SHA256(PGTWO_CALLBACK_SECRET, raw body). Repeats answer 200.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: null;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * My endpoints (at most 10)
         * @description API tokens: needs the `webhooks:read` scope.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                description: string;
                                disabled_at: string | null;
                                disabled_reason: string | null;
                                enabled: boolean;
                                event_types: string[];
                                failing_since: string | null;
                                id: number;
                                last_success_at: string | null;
                                previous_secret_expires_at: string | null;
                                /** Format: date-time */
                                updated_at: string;
                                url: string;
                            }[];
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Registers an endpoint; its signing secret is in this answer only
         * @description API tokens: needs the `webhooks:write` scope.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string;
                        event_types: ("topup.credited" | "invoice.issued" | "invoice.paid" | "invoice.overdue" | "balance.low" | "account.suspended" | "account.resumed" | "vm.state_changed" | "network.state_changed" | "bucket.created" | "bucket.deleted" | "ticket.replied" | "ticket.status_changed" | "*")[];
                        /** @description https URL (http is accepted outside production) */
                        url: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                description: string;
                                disabled_at: string | null;
                                disabled_reason: string | null;
                                enabled: boolean;
                                event_types: string[];
                                failing_since: string | null;
                                id: number;
                                last_success_at: string | null;
                                previous_secret_expires_at: string | null;
                                /** @description whsec_… signing secret, shown this once */
                                secret: string;
                                /** Format: date-time */
                                updated_at: string;
                                url: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/endpoints/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One endpoint
         * @description API tokens: needs the `webhooks:read` scope.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                description: string;
                                disabled_at: string | null;
                                disabled_reason: string | null;
                                enabled: boolean;
                                event_types: string[];
                                failing_since: string | null;
                                id: number;
                                last_success_at: string | null;
                                previous_secret_expires_at: string | null;
                                /** Format: date-time */
                                updated_at: string;
                                url: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Deletes an endpoint with its delivery history
         * @description API tokens: needs the `webhooks:write` scope.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: null;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Changes an endpoint; enabled: false stops it, enabled: true starts it again
         * @description API tokens: needs the `webhooks:write` scope.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string;
                        enabled?: boolean;
                        event_types?: ("topup.credited" | "invoice.issued" | "invoice.paid" | "invoice.overdue" | "balance.low" | "account.suspended" | "account.resumed" | "vm.state_changed" | "network.state_changed" | "bucket.created" | "bucket.deleted" | "ticket.replied" | "ticket.status_changed" | "*")[];
                        /** @description https URL (http is accepted outside production) */
                        url?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                description: string;
                                disabled_at: string | null;
                                disabled_reason: string | null;
                                enabled: boolean;
                                event_types: string[];
                                failing_since: string | null;
                                id: number;
                                last_success_at: string | null;
                                previous_secret_expires_at: string | null;
                                /** Format: date-time */
                                updated_at: string;
                                url: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/webhooks/endpoints/{id}/replay-failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sends again every delivery to this endpoint that failed for good since a time
         * @description API tokens: needs the `webhooks:write` scope.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * Format: date-time
                         * @description ISO 8601 instant with an explicit offset (Z or ±hh:mm), e.g. 2030-01-31T17:00:00Z; between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z in UTC; fractions of a second are kept to the millisecond
                         */
                        since: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description deliveries queued again */
                                replayed: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/endpoints/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A new signing secret (in this answer only); the previous one keeps signing for 24 hours
         * @description API tokens: needs the `webhooks:write` scope.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                description: string;
                                disabled_at: string | null;
                                disabled_reason: string | null;
                                enabled: boolean;
                                event_types: string[];
                                failing_since: string | null;
                                id: number;
                                last_success_at: string | null;
                                previous_secret_expires_at: string | null;
                                /** @description whsec_… signing secret, shown this once */
                                secret: string;
                                /** Format: date-time */
                                updated_at: string;
                                url: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/endpoints/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sends a webhook.test event to this endpoint
         * @description API tokens: needs the `webhooks:write` scope.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                event_id: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/event-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The event types an endpoint can take
         * @description API tokens: needs the `webhooks:read` scope.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                description: string;
                                type: string;
                            }[];
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Events sent to my endpoints, newest first, with each delivery
         * @description API tokens: needs the `webhooks:read` scope.
         */
        get: {
            parameters: {
                query?: {
                    endpoint_id?: number;
                    limit?: number;
                    page?: number;
                    /** @description events with a delivery in this state */
                    status?: "pending" | "succeeded" | "failed";
                    type?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                deliveries: {
                                    attempts: number;
                                    endpoint_id: number;
                                    last_attempt_at: string | null;
                                    next_attempt_at: string | null;
                                    status: "pending" | "succeeded" | "failed";
                                    succeeded_at: string | null;
                                }[];
                                /** @description evt_<uuid>: the webhook-id header of its deliveries */
                                id: string;
                                /** Format: date-time */
                                occurred_at: string;
                                /** @description the exact body every delivery of this event sends (what the signature covers) */
                                payload: string;
                                type: string;
                            }[];
                            message: string;
                            meta: {
                                limit: number;
                                page: number;
                                total: number;
                                total_pages: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/events/{event_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One event with every attempt of each delivery (status code, duration, first KiB of the answer)
         * @description API tokens: needs the `webhooks:read` scope.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description evt_<uuid>, the webhook-id of its deliveries */
                    event_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                deliveries: {
                                    attempt_log: {
                                        attempt: number;
                                        duration_ms: number | null;
                                        error: string | null;
                                        finished_at: string | null;
                                        response_body: string | null;
                                        /** Format: date-time */
                                        started_at: string;
                                        status: "sending" | "succeeded" | "failed" | "interrupted";
                                        status_code: number | null;
                                    }[];
                                    attempts: number;
                                    endpoint_id: number;
                                    last_attempt_at: string | null;
                                    next_attempt_at: string | null;
                                    status: "pending" | "succeeded" | "failed";
                                    succeeded_at: string | null;
                                }[];
                                /** @description evt_<uuid>: the webhook-id header of its deliveries */
                                id: string;
                                /** Format: date-time */
                                occurred_at: string;
                                /** @description the exact body every delivery of this event sends (what the signature covers) */
                                payload: string;
                                type: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/events/{event_id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sends an event again, to every endpoint it went to or to endpoint_id
         * @description API tokens: needs the `webhooks:write` scope.
         */
        post: {
            parameters: {
                query?: {
                    endpoint_id?: number;
                };
                header?: never;
                path: {
                    /** @description evt_<uuid>, the webhook-id of its deliveries */
                    event_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description deliveries queued again */
                                replayed: number;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** Error */
        ErrorBody: {
            /** @description Stable machine-readable error code, e.g. VALIDATION_FAILED */
            code: string;
            errors?: {
                field: string;
                message: string;
            }[];
            message: string;
            request_id: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
