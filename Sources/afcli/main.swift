import AFCLI

AFCLIMain.run()
