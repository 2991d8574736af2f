      PROGRAM DEEP
      INTEGER I
      I = 1
      IF (I .GT. 0) THEN
      IF (I .GT. -1) THEN
      IF (I .GT. -2) THEN
      IF (I .GT. -3) THEN
      IF (I .GT. -4) THEN
      IF (I .GT. -5) THEN
      IF (I .GT. -6) THEN
      IF (I .GT. -7) THEN
      IF (I .GT. -8) THEN
      IF (I .GT. -9) THEN
      IF (I .GT. -10) THEN
      IF (I .GT. -11) THEN
      IF (I .GT. -12) THEN
      IF (I .GT. -13) THEN
      IF (I .GT. -14) THEN
      IF (I .GT. -15) THEN
      IF (I .GT. -16) THEN
      IF (I .GT. -17) THEN
      IF (I .GT. -18) THEN
      IF (I .GT. -19) THEN
      IF (I .GT. -20) THEN
      IF (I .GT. -21) THEN
      IF (I .GT. -22) THEN
      IF (I .GT. -23) THEN
      IF (I .GT. -24) THEN
      IF (I .GT. -25) THEN
      IF (I .GT. -26) THEN
      IF (I .GT. -27) THEN
      IF (I .GT. -28) THEN
      IF (I .GT. -29) THEN
      IF (I .GT. -30) THEN
      IF (I .GT. -31) THEN
      IF (I .GT. -32) THEN
      IF (I .GT. -33) THEN
      IF (I .GT. -34) THEN
      IF (I .GT. -35) THEN
      IF (I .GT. -36) THEN
      IF (I .GT. -37) THEN
      IF (I .GT. -38) THEN
      IF (I .GT. -39) THEN
      IF (I .GT. -40) THEN
      IF (I .GT. -41) THEN
      IF (I .GT. -42) THEN
      IF (I .GT. -43) THEN
      IF (I .GT. -44) THEN
      IF (I .GT. -45) THEN
      IF (I .GT. -46) THEN
      IF (I .GT. -47) THEN
      IF (I .GT. -48) THEN
      IF (I .GT. -49) THEN
      IF (I .GT. -50) THEN
      IF (I .GT. -51) THEN
      IF (I .GT. -52) THEN
      IF (I .GT. -53) THEN
      IF (I .GT. -54) THEN
      IF (I .GT. -55) THEN
      IF (I .GT. -56) THEN
      IF (I .GT. -57) THEN
      IF (I .GT. -58) THEN
      IF (I .GT. -59) THEN
      IF (I .GT. -60) THEN
      IF (I .GT. -61) THEN
      IF (I .GT. -62) THEN
      IF (I .GT. -63) THEN
      IF (I .GT. -64) THEN
      IF (I .GT. -65) THEN
      IF (I .GT. -66) THEN
      IF (I .GT. -67) THEN
      IF (I .GT. -68) THEN
      IF (I .GT. -69) THEN
      IF (I .GT. -70) THEN
      IF (I .GT. -71) THEN
      IF (I .GT. -72) THEN
      IF (I .GT. -73) THEN
      IF (I .GT. -74) THEN
      IF (I .GT. -75) THEN
      IF (I .GT. -76) THEN
      IF (I .GT. -77) THEN
      IF (I .GT. -78) THEN
      IF (I .GT. -79) THEN
      IF (I .GT. -80) THEN
      IF (I .GT. -81) THEN
      IF (I .GT. -82) THEN
      IF (I .GT. -83) THEN
      IF (I .GT. -84) THEN
      IF (I .GT. -85) THEN
      IF (I .GT. -86) THEN
      IF (I .GT. -87) THEN
      IF (I .GT. -88) THEN
      IF (I .GT. -89) THEN
      IF (I .GT. -90) THEN
      IF (I .GT. -91) THEN
      IF (I .GT. -92) THEN
      IF (I .GT. -93) THEN
      IF (I .GT. -94) THEN
      IF (I .GT. -95) THEN
      IF (I .GT. -96) THEN
      IF (I .GT. -97) THEN
      IF (I .GT. -98) THEN
      IF (I .GT. -99) THEN
      IF (I .GT. -100) THEN
      IF (I .GT. -101) THEN
      IF (I .GT. -102) THEN
      IF (I .GT. -103) THEN
      IF (I .GT. -104) THEN
      IF (I .GT. -105) THEN
      IF (I .GT. -106) THEN
      IF (I .GT. -107) THEN
      IF (I .GT. -108) THEN
      IF (I .GT. -109) THEN
      IF (I .GT. -110) THEN
      IF (I .GT. -111) THEN
      IF (I .GT. -112) THEN
      IF (I .GT. -113) THEN
      IF (I .GT. -114) THEN
      IF (I .GT. -115) THEN
      IF (I .GT. -116) THEN
      IF (I .GT. -117) THEN
      IF (I .GT. -118) THEN
      IF (I .GT. -119) THEN
      IF (I .GT. -120) THEN
      IF (I .GT. -121) THEN
      IF (I .GT. -122) THEN
      IF (I .GT. -123) THEN
      IF (I .GT. -124) THEN
      IF (I .GT. -125) THEN
      IF (I .GT. -126) THEN
      IF (I .GT. -127) THEN
      IF (I .GT. -128) THEN
      IF (I .GT. -129) THEN
      IF (I .GT. -130) THEN
      IF (I .GT. -131) THEN
      IF (I .GT. -132) THEN
      IF (I .GT. -133) THEN
      IF (I .GT. -134) THEN
      IF (I .GT. -135) THEN
      IF (I .GT. -136) THEN
      IF (I .GT. -137) THEN
      IF (I .GT. -138) THEN
      IF (I .GT. -139) THEN
      IF (I .GT. -140) THEN
      IF (I .GT. -141) THEN
      IF (I .GT. -142) THEN
      IF (I .GT. -143) THEN
      IF (I .GT. -144) THEN
      IF (I .GT. -145) THEN
      IF (I .GT. -146) THEN
      IF (I .GT. -147) THEN
      IF (I .GT. -148) THEN
      IF (I .GT. -149) THEN
      IF (I .GT. -150) THEN
      IF (I .GT. -151) THEN
      IF (I .GT. -152) THEN
      IF (I .GT. -153) THEN
      IF (I .GT. -154) THEN
      IF (I .GT. -155) THEN
      IF (I .GT. -156) THEN
      IF (I .GT. -157) THEN
      IF (I .GT. -158) THEN
      IF (I .GT. -159) THEN
      IF (I .GT. -160) THEN
      IF (I .GT. -161) THEN
      IF (I .GT. -162) THEN
      IF (I .GT. -163) THEN
      IF (I .GT. -164) THEN
      IF (I .GT. -165) THEN
      IF (I .GT. -166) THEN
      IF (I .GT. -167) THEN
      IF (I .GT. -168) THEN
      IF (I .GT. -169) THEN
      IF (I .GT. -170) THEN
      IF (I .GT. -171) THEN
      IF (I .GT. -172) THEN
      IF (I .GT. -173) THEN
      IF (I .GT. -174) THEN
      IF (I .GT. -175) THEN
      IF (I .GT. -176) THEN
      IF (I .GT. -177) THEN
      IF (I .GT. -178) THEN
      IF (I .GT. -179) THEN
      IF (I .GT. -180) THEN
      IF (I .GT. -181) THEN
      IF (I .GT. -182) THEN
      IF (I .GT. -183) THEN
      IF (I .GT. -184) THEN
      IF (I .GT. -185) THEN
      IF (I .GT. -186) THEN
      IF (I .GT. -187) THEN
      IF (I .GT. -188) THEN
      IF (I .GT. -189) THEN
      IF (I .GT. -190) THEN
      IF (I .GT. -191) THEN
      IF (I .GT. -192) THEN
      IF (I .GT. -193) THEN
      IF (I .GT. -194) THEN
      IF (I .GT. -195) THEN
      IF (I .GT. -196) THEN
      IF (I .GT. -197) THEN
      IF (I .GT. -198) THEN
      IF (I .GT. -199) THEN
      IF (I .GT. -200) THEN
      IF (I .GT. -201) THEN
      IF (I .GT. -202) THEN
      IF (I .GT. -203) THEN
      IF (I .GT. -204) THEN
      IF (I .GT. -205) THEN
      IF (I .GT. -206) THEN
      IF (I .GT. -207) THEN
      IF (I .GT. -208) THEN
      IF (I .GT. -209) THEN
      IF (I .GT. -210) THEN
      IF (I .GT. -211) THEN
      IF (I .GT. -212) THEN
      IF (I .GT. -213) THEN
      IF (I .GT. -214) THEN
      IF (I .GT. -215) THEN
      IF (I .GT. -216) THEN
      IF (I .GT. -217) THEN
      IF (I .GT. -218) THEN
      IF (I .GT. -219) THEN
      IF (I .GT. -220) THEN
      IF (I .GT. -221) THEN
      IF (I .GT. -222) THEN
      IF (I .GT. -223) THEN
      IF (I .GT. -224) THEN
      IF (I .GT. -225) THEN
      IF (I .GT. -226) THEN
      IF (I .GT. -227) THEN
      IF (I .GT. -228) THEN
      IF (I .GT. -229) THEN
      IF (I .GT. -230) THEN
      IF (I .GT. -231) THEN
      IF (I .GT. -232) THEN
      IF (I .GT. -233) THEN
      IF (I .GT. -234) THEN
      IF (I .GT. -235) THEN
      IF (I .GT. -236) THEN
      IF (I .GT. -237) THEN
      IF (I .GT. -238) THEN
      IF (I .GT. -239) THEN
      IF (I .GT. -240) THEN
      IF (I .GT. -241) THEN
      IF (I .GT. -242) THEN
      IF (I .GT. -243) THEN
      IF (I .GT. -244) THEN
      IF (I .GT. -245) THEN
      IF (I .GT. -246) THEN
      IF (I .GT. -247) THEN
      IF (I .GT. -248) THEN
      IF (I .GT. -249) THEN
      IF (I .GT. -250) THEN
      IF (I .GT. -251) THEN
      IF (I .GT. -252) THEN
      IF (I .GT. -253) THEN
      IF (I .GT. -254) THEN
      IF (I .GT. -255) THEN
      IF (I .GT. -256) THEN
      IF (I .GT. -257) THEN
      IF (I .GT. -258) THEN
      IF (I .GT. -259) THEN
      IF (I .GT. -260) THEN
      IF (I .GT. -261) THEN
      IF (I .GT. -262) THEN
      IF (I .GT. -263) THEN
      IF (I .GT. -264) THEN
      IF (I .GT. -265) THEN
      IF (I .GT. -266) THEN
      IF (I .GT. -267) THEN
      IF (I .GT. -268) THEN
      IF (I .GT. -269) THEN
      IF (I .GT. -270) THEN
      IF (I .GT. -271) THEN
      IF (I .GT. -272) THEN
      IF (I .GT. -273) THEN
      IF (I .GT. -274) THEN
      IF (I .GT. -275) THEN
      IF (I .GT. -276) THEN
      IF (I .GT. -277) THEN
      IF (I .GT. -278) THEN
      IF (I .GT. -279) THEN
      IF (I .GT. -280) THEN
      IF (I .GT. -281) THEN
      IF (I .GT. -282) THEN
      IF (I .GT. -283) THEN
      IF (I .GT. -284) THEN
      IF (I .GT. -285) THEN
      IF (I .GT. -286) THEN
      IF (I .GT. -287) THEN
      IF (I .GT. -288) THEN
      IF (I .GT. -289) THEN
      IF (I .GT. -290) THEN
      IF (I .GT. -291) THEN
      IF (I .GT. -292) THEN
      IF (I .GT. -293) THEN
      IF (I .GT. -294) THEN
      IF (I .GT. -295) THEN
      IF (I .GT. -296) THEN
      IF (I .GT. -297) THEN
      IF (I .GT. -298) THEN
      IF (I .GT. -299) THEN
      IF (I .GT. -300) THEN
      IF (I .GT. -301) THEN
      IF (I .GT. -302) THEN
      IF (I .GT. -303) THEN
      IF (I .GT. -304) THEN
      IF (I .GT. -305) THEN
      IF (I .GT. -306) THEN
      IF (I .GT. -307) THEN
      IF (I .GT. -308) THEN
      IF (I .GT. -309) THEN
      IF (I .GT. -310) THEN
      IF (I .GT. -311) THEN
      IF (I .GT. -312) THEN
      IF (I .GT. -313) THEN
      IF (I .GT. -314) THEN
      IF (I .GT. -315) THEN
      IF (I .GT. -316) THEN
      IF (I .GT. -317) THEN
      IF (I .GT. -318) THEN
      IF (I .GT. -319) THEN
      IF (I .GT. -320) THEN
      IF (I .GT. -321) THEN
      IF (I .GT. -322) THEN
      IF (I .GT. -323) THEN
      IF (I .GT. -324) THEN
      IF (I .GT. -325) THEN
      IF (I .GT. -326) THEN
      IF (I .GT. -327) THEN
      IF (I .GT. -328) THEN
      IF (I .GT. -329) THEN
      IF (I .GT. -330) THEN
      IF (I .GT. -331) THEN
      IF (I .GT. -332) THEN
      IF (I .GT. -333) THEN
      IF (I .GT. -334) THEN
      IF (I .GT. -335) THEN
      IF (I .GT. -336) THEN
      IF (I .GT. -337) THEN
      IF (I .GT. -338) THEN
      IF (I .GT. -339) THEN
      IF (I .GT. -340) THEN
      IF (I .GT. -341) THEN
      IF (I .GT. -342) THEN
      IF (I .GT. -343) THEN
      IF (I .GT. -344) THEN
      IF (I .GT. -345) THEN
      IF (I .GT. -346) THEN
      IF (I .GT. -347) THEN
      IF (I .GT. -348) THEN
      IF (I .GT. -349) THEN
      IF (I .GT. -350) THEN
      IF (I .GT. -351) THEN
      IF (I .GT. -352) THEN
      IF (I .GT. -353) THEN
      IF (I .GT. -354) THEN
      IF (I .GT. -355) THEN
      IF (I .GT. -356) THEN
      IF (I .GT. -357) THEN
      IF (I .GT. -358) THEN
      IF (I .GT. -359) THEN
      IF (I .GT. -360) THEN
      IF (I .GT. -361) THEN
      IF (I .GT. -362) THEN
      IF (I .GT. -363) THEN
      IF (I .GT. -364) THEN
      IF (I .GT. -365) THEN
      IF (I .GT. -366) THEN
      IF (I .GT. -367) THEN
      IF (I .GT. -368) THEN
      IF (I .GT. -369) THEN
      IF (I .GT. -370) THEN
      IF (I .GT. -371) THEN
      IF (I .GT. -372) THEN
      IF (I .GT. -373) THEN
      IF (I .GT. -374) THEN
      IF (I .GT. -375) THEN
      IF (I .GT. -376) THEN
      IF (I .GT. -377) THEN
      IF (I .GT. -378) THEN
      IF (I .GT. -379) THEN
      IF (I .GT. -380) THEN
      IF (I .GT. -381) THEN
      IF (I .GT. -382) THEN
      IF (I .GT. -383) THEN
      IF (I .GT. -384) THEN
      IF (I .GT. -385) THEN
      IF (I .GT. -386) THEN
      IF (I .GT. -387) THEN
      IF (I .GT. -388) THEN
      IF (I .GT. -389) THEN
      IF (I .GT. -390) THEN
      IF (I .GT. -391) THEN
      IF (I .GT. -392) THEN
      IF (I .GT. -393) THEN
      IF (I .GT. -394) THEN
      IF (I .GT. -395) THEN
      IF (I .GT. -396) THEN
      IF (I .GT. -397) THEN
      IF (I .GT. -398) THEN
      IF (I .GT. -399) THEN
      I = I + 1
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END IF
      END
