-- Log in with itch.io from Defold's HTML5 build, through itch_login.js and the jstodef extension.
--
--   local itch_login = require "itch_login.itch_login"
--   function init(self) itch_login.init() end
--   function final(self) itch_login.final() end
--   -- in on_input, on a click:
--   itch_login.login({ clientId = "…", redirectUri = "…", backend = "…", mode = "popup" },
--     function(self, result) if result.ok then print(result.user.username) else print(result.code) end end)
--
-- result: { ok = true, id, user = { id, username, display_name, … }, owns = { ["<game id>"] = bool },
-- game_token, response = "<the token endpoint's JSON answer>" } or { ok = false, id, code, message,
-- player_message } (player_message: the sentence to show the player, in the page's language).
--
-- With renew (your sessions.renew URL) among the login's options, the page keeps the game token
-- (no game_token then), and itch_login.fetch calls your site's API with it:
--   itch_login.fetch("https://…/api/progress", { method = "PUT", body = json.encode({ stars = 3 }) },
--     function(self, answer) print(answer.status, answer.body) end)
-- and at start, without a click, itch_login.restore finds a login kept across a reload:
--   itch_login.restore(options, function(self, result) if result.restored then print(result.user.username) end end)
-- Written for Lua 5.1 (Defold's LuaJIT): no goto, no integer division, no bitwise operators.

local M = {}

local callbacks = {}

local function listener(self, message_id, message)
	if (message_id ~= "itch_login" and message_id ~= "itch_login_restore" and message_id ~= "itch_login_fetch")
		or type(message) ~= "table" then
		return
	end
	local id = tostring(message.id)
	local callback = callbacks[id]
	callbacks[id] = nil
	if callback then
		callback(self, message)
	end
end

--- Listens to jstodef's messages; call it in the init() of the script that logs in.
function M.init()
	if jstodef then
		jstodef.add_listener(listener)
	end
end

--- Stops listening; call it in final().
function M.final()
	if jstodef then
		jstodef.remove_listener(listener)
	end
end

--- Starts a login from a click; callback(self, result) runs once with its outcome, with the self of
--- the script that called init() (jstodef hands its listeners that script's self), or nil when the
--- login could not start. Returns the id, or nil.
function M.login(options, callback)
	if not html5 or not jstodef then
		callback(nil, { ok = false, code = "config_invalid", message = "itch_login works in an HTML5 build with jstodef" })
		return nil
	end
	-- Without the page's half, html5.run would answer the JavaScript error's text as the id.
	if html5.run("typeof window.ItchLoginDefold") ~= "object" then
		callback(nil, { ok = false, code = "config_invalid", message = "ItchLoginDefold is missing: load itch_login.js in the HTML template" })
		return nil
	end
	-- JSON is a JavaScript expression: the options reach the page as data, never as code.
	local id = html5.run("ItchLoginDefold.login(" .. json.encode(options) .. ")")
	callbacks[id] = callback
	return id
end

--- Asks the page, without a click, whether the player is still signed in: after a reload, the
--- login kept with renew (in the frame's sessionStorage) is taken back and renewed with your site.
--- Call it at start (after init()) with the login's options: the first of the two makes the page's
--- game session with its options. callback(self, result) runs once with { id, restored = true,
--- user, owns, response } (a login's fields), or { restored = false }: no login kept, the site
--- refused it, or (with code and message) it failed. Returns the id, or nil (then the callback
--- has run with restored = false and code config_invalid).
function M.restore(options, callback)
	if not html5 or not jstodef or html5.run("typeof window.ItchLoginDefold") ~= "object" then
		callback(nil, { restored = false, code = "config_invalid",
			message = "itch_login works in an HTML5 build with jstodef and itch_login.js" })
		return nil
	end
	-- JSON is a JavaScript expression: the options reach the page as data, never as code.
	local id = html5.run("ItchLoginDefold.restore(" .. json.encode(options) .. ")")
	callbacks[id] = callback
	return id
end

--- Calls your site's API (a full URL) after a login with renew in its options: the page adds the
--- game token for your token endpoint's origin only, and renews it when needed; the game never
--- holds it. init is fetch()'s, as a table: method, headers, body (a string). callback(self, answer)
--- runs once with { id, status, body }: the HTTP status (0 when no answer came) and the answer's
--- text. Returns the id, or nil (then the callback has run with status 0).
function M.fetch(url, init, callback)
	if not html5 or not jstodef or html5.run("typeof window.ItchLoginDefold") ~= "object" then
		callback(nil, { status = 0, body = "" })
		return nil
	end
	-- JSON is a JavaScript expression: the call reaches the page as data, never as code.
	local id = html5.run("ItchLoginDefold.fetch(" .. json.encode({ url = url, init = init or {} }) .. ")")
	callbacks[id] = callback
	return id
end

--- Cancels a login: its callback receives code "aborted".
function M.cancel(id)
	if html5 and tostring(id):match("^%d+$") then
		html5.run("ItchLoginDefold.cancel('" .. id .. "')")
	end
end

return M
