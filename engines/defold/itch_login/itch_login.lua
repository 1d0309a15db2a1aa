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
-- Written for Lua 5.1 (Defold's LuaJIT): no goto, no integer division, no bitwise operators.

local M = {}

local callbacks = {}

local function listener(self, message_id, message)
	if message_id ~= "itch_login" or type(message) ~= "table" then
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

--- Cancels a login: its callback receives code "aborted".
function M.cancel(id)
	if html5 and tostring(id):match("^%d+$") then
		html5.run("ItchLoginDefold.cancel('" .. id .. "')")
	end
end

return M
