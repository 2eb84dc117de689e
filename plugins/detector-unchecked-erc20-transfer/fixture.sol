pragma solidity ^0.8.0;

interface IERC20 {
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

interface IUSDT {
    function transfer(address to, uint256 amount) external;
}

contract Pool {
    IERC20 public token;
    IUSDT public usdt;
    mapping(address => uint256) public deposits;

    function deposit(uint256 amount) external {
        token.transferFrom(msg.sender, address(this), amount); // expect: unchecked-erc20-transfer
        deposits[msg.sender] += amount;
    }

    function withdraw(uint256 amount) external {
        deposits[msg.sender] -= amount;
        IERC20(address(token)).transfer(msg.sender, amount); // expect: unchecked-erc20-transfer
    }

    function withdrawChecked(uint256 amount) external {
        deposits[msg.sender] -= amount;
        require(token.transfer(msg.sender, amount), "transfer failed");
    }

    function withdrawAssigned(uint256 amount) external returns (bool) {
        deposits[msg.sender] -= amount;
        bool ok = token.transfer(msg.sender, amount);
        return ok;
    }

    function payUsdt(address to, uint256 amount) external {
        require(deposits[msg.sender] >= amount);
        deposits[msg.sender] -= amount;
        usdt.transfer(to, amount);
    }

    function payEther(address payable to) external {
        to.transfer(1);
    }
}
